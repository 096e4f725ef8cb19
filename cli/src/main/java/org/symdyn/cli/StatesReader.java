package org.symdyn.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.model.InitialState;
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
 * {@code points} (optional, none when missing) asks for the kinematics of points: an array of
 * {@code {"frame": NAME, "point": [x, y, z]}}, NAME a link or frame of the model ({@link Model#frames()}) and the
 * point in that frame's coordinates; both keys are required.
 * Any other key, at the top, in a state or in a point, is an error, so that a misspelt {@code "V"} is not silently
 * read as zero velocity. A floating or ball joint's quaternion, in {@code q} and {@code q_init}, must not be zero (the
 * dynamics normalise it otherwise).
 *
 * <p>Every problem is reported, not only the first, in file order, each as {@code path:[line,col] message}
 * pointing at the offending array, number or state; a JSON syntax error ends the reading at that error.
 */
final class StatesReader {
    /**
     * One state to evaluate: q (nq), v, tau and a (nv each); the optional assembly inputs qInit (nq), vInit (nv)
     * and weights (nv, positive), each null when absent; the points asked for (empty when absent); and where the
     * state was written.
     */
    record State(double[] q, double[] v, double[] tau, double[] a, double[] qInit, double[] vInit, double[] weights,
            List<PointRequest> points, SourceLocation location) {
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

    /**
     * One entry of a state's {@code points}: the frame (its name and index into {@link Model#frames()}) and the
     * point in that frame's coordinates (3 numbers).
     */
    record PointRequest(String frameName, int frame, double[] point) {
    }

    /** The keys a state may have, in the order the "unknown key" message lists them. */
    private static final List<String> STATE_KEYS = List.of("q", "v", "tau", "a", "q_init", "v_init", "weights",
            "points");
    /** The keys of one entry of {@code points}, in the order the "unknown key" message lists them. */
    private static final List<String> POINT_KEYS = List.of("frame", "point");
    /** How many frame names an "unknown frame" message lists at most. */
    private static final int FRAMES_LISTED = 8;

    private final Model model;
    private final JsonChecks checks;

    private StatesReader(String path, Model model) {
        this.model = model;
        this.checks = new JsonChecks(path, model);
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
        reader.checks.throwIfAny();
        return states;
    }

    /** The keys of the initial state of {@code symdyn simulate}, in the order the "unknown key" message lists them. */
    private static final List<String> INITIAL_KEYS = List.of("q", "v", "tau");

    /**
     * Reads and checks the initial state of {@code symdyn simulate}: one object {@code {"q": [...], "v": [...],
     * "tau": [...]}}, every key optional: q (nq numbers) defaults to the model's reference configuration
     * ({@link Model#referenceConfiguration()}: the neutral one, zero joint positions and identity quaternions, or an
     * MJCF file's qpos0), v and tau (nv numbers each) to zeros. Other keys are errors.
     *
     * @param file  the state file, named in messages as given
     * @param model the model the state is for
     * @throws CliException every problem found, located (exit code 2)
     */
    static State readInitial(Path file, Model model) throws CliException {
        return readInitial(file, model, null);
    }

    /**
     * The initial state of {@code symdyn simulate --keyframe}: q and v from the model's initial state
     * {@code keyframe}, tau from the file when one is given (which then may hold only "tau": a "q" or "v" in it is an
     * error, since the keyframe gives them), else zero.
     *
     * @param file     the state file, or null
     * @param keyframe the model's initial state, or null for {@link #readInitial(Path, Model)}
     * @throws CliException every problem found in the file, located (exit code 2)
     */
    static State readInitial(Path file, Model model, InitialState keyframe) throws CliException {
        if (file == null) {
            return new State(keyframe.q(), keyframe.v(), new double[model.nv()], new double[model.nv()], null, null,
                    null, List.of(), keyframe.location());
        }
        JsonValue root;
        try {
            root = JsonReader.read(file);
        } catch (JsonException e) {
            throw CliException.badInput(e.getMessage());
        }
        StatesReader reader = new StatesReader(file.toString(), model);
        State state = reader.initial(root, keyframe);
        reader.checks.throwIfAny();
        return state;
    }

    private State initial(JsonValue root, InitialState keyframe) {
        if (!(root instanceof JsonValue.ObjectValue object)) {
            checks.error(root, "an initial state is an object {\"q\": [...], \"v\": [...], \"tau\": [...]}, not "
                    + root.typeWithArticle());
            return null;
        }
        for (var member : object.members().entrySet()) {
            if (!INITIAL_KEYS.contains(member.getKey())) {
                checks.error(member.getValue(), "unknown key '" + member.getKey() + "' (expected "
                        + String.join(", ", INITIAL_KEYS) + ")");
            }
        }
        if (keyframe != null) {
            for (String key : List.of("q", "v")) {
                if (object.get(key) != null) {
                    checks.error(object.get(key), "\"" + key + "\" is given by --keyframe " + keyframe.name()
                            + "; with it the initial state file may give only \"tau\"");
                }
            }
            double[] tau = checks.vector("", object, "tau", "nv", model.nv(), false);
            return tau == null ? null : new State(keyframe.q(), keyframe.v(), tau, new double[model.nv()], null,
                    null, null, List.of(), checks.location(root));
        }
        double[] q = object.get("q") == null ? model.referenceConfiguration()
                : checks.vector("", object, "q", "nq", model.nq(), true);
        double[] v = checks.vector("", object, "v", "nv", model.nv(), false);
        double[] tau = checks.vector("", object, "tau", "nv", model.nv(), false);
        if (q != null && object.get("q") != null) {
            checks.checkQuaternions("", "q", q, (JsonValue.ArrayValue) object.get("q"));
        }
        if (q == null || v == null || tau == null) {
            return null;
        }
        return new State(q, v, tau, new double[model.nv()], null, null, null, List.of(), checks.location(root));
    }

    private List<State> states(JsonValue root) {
        List<State> states = new ArrayList<>();
        if (!(root instanceof JsonValue.ObjectValue object)) {
            checks.error(root, "a states file holds an object {\"states\": [...]}, not " + root.typeWithArticle());
            return states;
        }
        for (var member : object.members().entrySet()) {
            if (!member.getKey().equals("states")) {
                checks.error(member.getValue(),
                        "unknown key '" + member.getKey() + "' (a states file has only \"states\")");
            }
        }
        JsonValue list = object.get("states");
        if (list == null) {
            checks.error(root, "missing \"states\": expected {\"states\": [{\"q\": [...]}, ...]}");
            return states;
        }
        if (!(list instanceof JsonValue.ArrayValue array)) {
            checks.error(list, "\"states\" must be an array of states, not " + list.typeWithArticle());
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
            checks.error(value,
                    prefix + "a state must be an object {\"q\": [...], ...}, not " + value.typeWithArticle());
            return null;
        }
        int before = checks.count();
        for (var member : object.members().entrySet()) {
            if (!STATE_KEYS.contains(member.getKey())) {
                checks.error(member.getValue(), prefix + "unknown key '" + member.getKey() + "' (expected "
                        + String.join(", ", STATE_KEYS) + ")");
            }
        }
        double[] q = checks.vector(prefix, object, "q", "nq", model.nq(), true);
        double[] v = checks.vector(prefix, object, "v", "nv", model.nv(), false);
        double[] tau = checks.vector(prefix, object, "tau", "nv", model.nv(), false);
        double[] a = checks.vector(prefix, object, "a", "nv", model.nv(), false);
        double[] qInit = optionalVector(prefix, object, "q_init", "nq", model.nq());
        double[] vInit = optionalVector(prefix, object, "v_init", "nv", model.nv());
        double[] weights = optionalVector(prefix, object, "weights", "nv", model.nv());
        List<PointRequest> points = points(prefix, object.get("points"));
        if (q != null) {
            checks.checkQuaternions(prefix, "q", q, (JsonValue.ArrayValue) object.get("q"));
        }
        if (qInit != null) {
            checks.checkQuaternions(prefix, "q_init", qInit, (JsonValue.ArrayValue) object.get("q_init"));
        }
        if (weights != null) {
            JsonValue.ArrayValue array = (JsonValue.ArrayValue) object.get("weights");
            for (int i = 0; i < weights.length; i++) {
                if (!(weights[i] > 0)) {
                    checks.error(array.get(i), prefix + "weights[" + i + "] must be positive, not "
                            + JsonWriter.formatNumber(weights[i]));
                }
            }
        }
        if (checks.count() > before) {
            return null;
        }
        return new State(q, v, tau, a, qInit, vInit, weights, points, checks.location(value));
    }

    /** The entries of {@code "points"} (empty when absent), with errors recorded for bad ones. */
    private List<PointRequest> points(String prefix, JsonValue value) {
        List<PointRequest> points = new ArrayList<>();
        if (value == null) {
            return points;
        }
        if (!(value instanceof JsonValue.ArrayValue array)) {
            checks.error(value, prefix + "points must be an array of {\"frame\": NAME, \"point\": [x, y, z]}, not "
                    + value.typeWithArticle());
            return points;
        }
        for (int j = 0; j < array.size(); j++) {
            PointRequest p = point(prefix + "points[" + j + "]", array.get(j));
            if (p != null) {
                points.add(p);
            }
        }
        return points;
    }

    private PointRequest point(String prefix, JsonValue value) {
        if (!(value instanceof JsonValue.ObjectValue object)) {
            checks.error(value, prefix + " must be an object {\"frame\": NAME, \"point\": [x, y, z]}, not "
                    + value.typeWithArticle());
            return null;
        }
        boolean ok = true;
        for (var member : object.members().entrySet()) {
            if (!POINT_KEYS.contains(member.getKey())) {
                checks.error(member.getValue(), prefix + ": unknown key '" + member.getKey() + "' (expected "
                        + String.join(", ", POINT_KEYS) + ")");
                ok = false;
            }
        }
        JsonValue frameValue = object.get("frame");
        int frame = -1;
        String name = null;
        if (frameValue == null) {
            checks.error(object, prefix + ": missing \"frame\" (the name of a link or frame of the model)");
            ok = false;
        } else if (!(frameValue instanceof JsonValue.StringValue string)) {
            checks.error(frameValue, prefix + ".frame must be a string (the name of a link or frame of the model), not "
                    + frameValue.typeWithArticle());
            ok = false;
        } else {
            name = string.value();
            frame = frameIndex(name);
            if (frame < 0) {
                checks.error(frameValue, prefix + ": unknown frame '" + name + "' (" + someFrames() + ")");
                ok = false;
            }
        }
        JsonValue pointValue = object.get("point");
        double[] point = null;
        if (pointValue == null) {
            checks.error(object, prefix + ": missing \"point\" (x, y, z in the frame's coordinates)");
            ok = false;
        } else if (!(pointValue instanceof JsonValue.ArrayValue array)) {
            checks.error(pointValue,
                    prefix + ".point must be an array of 3 numbers (x, y, z in the frame's coordinates),"
                    + " not " + pointValue.typeWithArticle());
            ok = false;
        } else {
            if (array.size() != 3) {
                checks.error(array, prefix + ".point has " + array.size() + (array.size() == 1 ? " number" : " numbers")
                        + ", expected 3 (x, y, z in the frame's coordinates)");
                ok = false;
            }
            point = new double[array.size()];
            for (int i = 0; i < array.size(); i++) {
                JsonValue element = array.get(i);
                if (element instanceof JsonValue.NumberValue number) {
                    point[i] = number.value(); // always finite: the JSON reader refuses overflow
                } else {
                    checks.error(element,
                            prefix + ".point[" + i + "] must be a number, not " + element.typeWithArticle());
                    ok = false;
                }
            }
        }
        return ok ? new PointRequest(name, frame, point) : null;
    }

    private int frameIndex(String name) {
        for (int f = 0; f < model.frames().size(); f++) {
            if (model.frames().get(f).name().equals(name)) {
                return f;
            }
        }
        return -1;
    }

    /** "frames: a, b, c" with at most {@link #FRAMES_LISTED} names, and how many there are when not all fit. */
    private String someFrames() {
        List<String> names = model.frames().stream().map(f -> f.name()).toList();
        if (names.size() <= FRAMES_LISTED) {
            return "frames: " + String.join(", ", names);
        }
        return "frames: " + String.join(", ", names.subList(0, FRAMES_LISTED)) + ", ... (" + names.size()
                + " in all; symdyn inspect lists them)";
    }

    /** The vector under {@code key}, null when absent or bad (with errors recorded when bad). */
    private double[] optionalVector(String prefix, JsonValue.ObjectValue state, String key, String sizeName,
            int size) {
        return state.get(key) == null ? null : checks.vector(prefix, state, key, sizeName, size, false);
    }
}
