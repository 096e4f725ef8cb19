package org.symdyn.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.model.Body;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;

/**
 * Reads the states file of {@code symdyn evaluate} and checks it against a model.
 *
 * <p>Format: {@code {"states": [{"q": [...], "v": [...], "tau": [...], "a": [...]}, ...]}}. {@code q} (nq
 * numbers) is required; {@code v}, {@code tau} and {@code a} (nv numbers each) are optional and zero when missing.
 * The assembly inputs of constrained models are optional and absent (null in {@link State}) when missing:
 * {@code q_init} (nq numbers, the guess of position assembly), {@code v_init} (nv numbers, the guess of velocity
 * assembly) and {@code weights} (nv positive numbers, one per velocity coordinate; all 1 when missing). They are
 * read and checked for every model, and ignored by models without constraints.
 * Any other key, at the top or in a state, is an error, so that a misspelt {@code "V"} is not silently read as
 * zero velocity. A floating or ball joint's quaternion, in {@code q} and {@code q_init}, must not be zero (the
 * dynamics normalise it otherwise).
 *
 * <p>Every problem is reported, not only the first, in file order, each as {@code path:[line,col] message}
 * pointing at the offending array, number or state; a JSON syntax error ends the reading at that error.
 */
final class StatesReader {
    /**
     * One state to evaluate: q (nq), v, tau and a (nv each); the optional assembly inputs qInit (nq), vInit (nv)
     * and weights (nv, positive), each null when absent; and where the state was written.
     */
    record State(double[] q, double[] v, double[] tau, double[] a, double[] qInit, double[] vInit, double[] weights,
            SourceLocation location) {
        /** {@link #weights()}, or all ones when absent. */
        double[] weightsOrOnes() {
            if (weights != null) {
                return weights;
            }
            double[] ones = new double[v.length];
            java.util.Arrays.fill(ones, 1.0);
            return ones;
        }
    }

    /** The keys a state may have, in the order the "unknown key" message lists them. */
    private static final List<String> STATE_KEYS = List.of("q", "v", "tau", "a", "q_init", "v_init", "weights");

    private final String path;
    private final Model model;
    private final List<Diagnostic> errors = new ArrayList<>();

    private StatesReader(String path, Model model) {
        this.path = path;
        this.model = model;
    }

    /**
     * Reads and checks the states file.
     *
     * @param file  the states file, named in messages as given
     * @param model the model the states are for (nq, nv, quaternion coordinates)
     * @throws CliException every problem found (exit code 2)
     */
    static List<State> read(Path file, Model model) throws CliException {
        JsonValue root;
        try {
            root = JsonReader.read(file);
        } catch (JsonException e) {
            throw CliException.badInput(e.getMessage());
        }
        StatesReader reader = new StatesReader(file.toString(), model);
        List<State> states = reader.states(root);
        if (!reader.errors.isEmpty()) {
            throw CliException.badInput(reader.errors.stream()
                    .sorted(Comparator.comparingInt((Diagnostic d) -> d.location().line())
                            .thenComparingInt(d -> d.location().column()))
                    .map(Diagnostic::toString)
                    .toList());
        }
        return states;
    }

    private List<State> states(JsonValue root) {
        List<State> states = new ArrayList<>();
        if (!(root instanceof JsonValue.ObjectValue object)) {
            error(root, "a states file holds an object {\"states\": [...]}, not " + article(root));
            return states;
        }
        for (var member : object.members().entrySet()) {
            if (!member.getKey().equals("states")) {
                error(member.getValue(), "unknown key '" + member.getKey() + "' (a states file has only \"states\")");
            }
        }
        JsonValue list = object.get("states");
        if (list == null) {
            error(root, "missing \"states\": expected {\"states\": [{\"q\": [...]}, ...]}");
            return states;
        }
        if (!(list instanceof JsonValue.ArrayValue array)) {
            error(list, "\"states\" must be an array of states, not " + article(list));
            return states;
        }
        for (int i = 0; i < array.size(); i++) {
            State s = state(i, array.get(i));
            if (s != null) {
                states.add(s);
            }
        }
        return states;
    }

    private State state(int index, JsonValue value) {
        String prefix = "state " + index + ": ";
        if (!(value instanceof JsonValue.ObjectValue object)) {
            error(value, prefix + "a state must be an object {\"q\": [...], ...}, not " + article(value));
            return null;
        }
        int before = errors.size();
        for (var member : object.members().entrySet()) {
            if (!STATE_KEYS.contains(member.getKey())) {
                error(member.getValue(), prefix + "unknown key '" + member.getKey() + "' (expected "
                        + String.join(", ", STATE_KEYS) + ")");
            }
        }
        double[] q = vector(prefix, object, "q", "nq", model.nq(), true);
        double[] v = vector(prefix, object, "v", "nv", model.nv(), false);
        double[] tau = vector(prefix, object, "tau", "nv", model.nv(), false);
        double[] a = vector(prefix, object, "a", "nv", model.nv(), false);
        double[] qInit = optionalVector(prefix, object, "q_init", "nq", model.nq());
        double[] vInit = optionalVector(prefix, object, "v_init", "nv", model.nv());
        double[] weights = optionalVector(prefix, object, "weights", "nv", model.nv());
        if (q != null) {
            checkQuaternions(prefix, "q", q, (JsonValue.ArrayValue) object.get("q"));
        }
        if (qInit != null) {
            checkQuaternions(prefix, "q_init", qInit, (JsonValue.ArrayValue) object.get("q_init"));
        }
        if (weights != null) {
            JsonValue.ArrayValue array = (JsonValue.ArrayValue) object.get("weights");
            for (int i = 0; i < weights.length; i++) {
                if (!(weights[i] > 0)) {
                    error(array.get(i), prefix + "weights[" + i + "] must be positive, not "
                            + JsonWriter.formatNumber(weights[i]));
                }
            }
        }
        if (errors.size() > before) {
            return null;
        }
        return new State(q, v, tau, a, qInit, vInit, weights, location(value));
    }

    /** The vector under {@code key}, null when absent or bad (with errors recorded when bad). */
    private double[] optionalVector(String prefix, JsonValue.ObjectValue state, String key, String sizeName,
            int size) {
        return state.get(key) == null ? null : vector(prefix, state, key, sizeName, size, false);
    }

    /** The vector under {@code key}, zeros when absent and optional, null (with errors recorded) when bad. */
    private double[] vector(String prefix, JsonValue.ObjectValue state, String key, String sizeName, int size,
            boolean required) {
        JsonValue value = state.get(key);
        if (value == null) {
            if (required) {
                error(state, prefix + "missing \"" + key + "\" (an array of " + sizeName + " = " + size
                        + " numbers)");
                return null;
            }
            return new double[size];
        }
        if (!(value instanceof JsonValue.ArrayValue array)) {
            error(value, prefix + key + " must be an array of " + sizeName + " = " + size + " numbers, not "
                    + article(value));
            return null;
        }
        boolean ok = true;
        if (array.size() != size) {
            error(array, prefix + key + " has " + array.size() + (array.size() == 1 ? " number" : " numbers")
                    + ", expected " + sizeName + " = " + size);
            ok = false;
        }
        double[] result = new double[array.size()];
        for (int i = 0; i < array.size(); i++) {
            JsonValue element = array.get(i);
            if (element instanceof JsonValue.NumberValue number) {
                result[i] = number.value(); // always finite: the JSON reader refuses overflow
            } else {
                error(element, prefix + key + "[" + i + "] must be a number, not " + article(element));
                ok = false;
            }
        }
        return ok ? result : null;
    }

    private void checkQuaternions(String prefix, String key, double[] q, JsonValue.ArrayValue qArray) {
        for (Body body : model.bodies()) {
            Joint joint = body.joint();
            int first;
            if (joint.type() == JointType.FLOATING) {
                first = joint.qIndex() + 3;
            } else if (joint.type() == JointType.BALL) {
                first = joint.qIndex();
            } else {
                continue;
            }
            double norm = Math.sqrt(q[first] * q[first] + q[first + 1] * q[first + 1]
                    + q[first + 2] * q[first + 2] + q[first + 3] * q[first + 3]);
            if (!(norm > 1e-150) || !Double.isFinite(norm)) {
                error(qArray.get(first), prefix + "the quaternion " + key + "[" + first + ".." + (first + 3) + "] of joint '"
                        + joint.name() + "' must be a unit quaternion (x, y, z, w); it is " + (norm == 0 ? "zero"
                                : norm > 1 ? "too large to normalise" : "too small to normalise"));
            }
        }
    }

    private void error(JsonValue at, String message) {
        errors.add(Diagnostic.error(location(at), message));
    }

    private SourceLocation location(JsonValue at) {
        return new SourceLocation(path, at.position().line(), at.position().column());
    }

    private static String article(JsonValue value) {
        String type = value.typeName();
        return switch (type) {
            case "array", "object" -> "an " + type;
            case "null" -> "null";
            default -> "a " + type;
        };
    }
}
