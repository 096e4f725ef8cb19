package org.symdyn.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.model.Body;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Joint;
import org.symdyn.model.JointType;
import org.symdyn.model.Model;
import org.symdyn.model.SourceLocation;

/**
 * The problems found in one JSON input file of a command (a states file, an initial state, rollout specifications or
 * a sweep), each located at the value it is about, and the checks those files share: a vector of a model's size, a
 * floating or ball joint's quaternion that must not be zero. Every problem is collected, then reported together
 * ({@link #throwIfAny}) in file order as {@code path:[line,col] message} lines.
 */
final class JsonChecks {
    private final String path;
    private final Model model;
    private final List<Diagnostic> errors = new ArrayList<>();

    /**
     * @param path  the file as named in messages
     * @param model the model the file is for (sizes, joints)
     */
    JsonChecks(String path, Model model) {
        this.path = path;
        this.model = model;
    }

    /** Records a problem at {@code at}. */
    void error(JsonValue at, String message) {
        errors.add(Diagnostic.error(location(at), message));
    }

    /** How many problems have been recorded (to tell whether a part of the file added some). */
    int count() {
        return errors.size();
    }

    /** Where {@code at} starts in the file. */
    SourceLocation location(JsonValue at) {
        return new SourceLocation(path, at.position().line(), at.position().column());
    }

    /**
     * Throws every recorded problem, sorted by position (exit code 2); returns when there is none.
     *
     * @throws CliException the problems, one {@code path:[line,col] message} line each
     */
    void throwIfAny() throws CliException {
        if (!errors.isEmpty()) {
            throw CliException.badInput(errors.stream()
                    .sorted(Comparator.comparingInt((Diagnostic d) -> d.location().line())
                            .thenComparingInt(d -> d.location().column()))
                    .map(Diagnostic::toString)
                    .toList());
        }
    }

    /**
     * The vector under {@code key}: zeros when absent and not {@code required}, null (with a problem recorded) when
     * absent and required or bad (not an array, another length than {@code size}, an element not a number).
     *
     * @param prefix   what the messages start with ("state 3: ", or "")
     * @param sizeName the size's name in messages ("nq", "nv")
     */
    double[] vector(String prefix, JsonValue.ObjectValue object, String key, String sizeName, int size,
            boolean required) {
        JsonValue value = object.get(key);
        if (value == null) {
            if (required) {
                error(object, prefix + "missing \"" + key + "\" (an array of " + sizeName + " = " + size
                        + " numbers)");
                return null;
            }
            return new double[size];
        }
        if (!(value instanceof JsonValue.ArrayValue array)) {
            error(value, prefix + key + " must be an array of " + sizeName + " = " + size + " numbers, not "
                    + value.typeWithArticle());
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
                error(element, prefix + key + "[" + i + "] must be a number, not " + element.typeWithArticle());
                ok = false;
            }
        }
        return ok ? result : null;
    }

    /**
     * Records a problem for each floating or ball joint whose quaternion in {@code q} (read from {@code qArray}) is
     * zero; any other finite quaternion is normalised by both backends.
     */
    void checkQuaternions(String prefix, String key, double[] q, JsonValue.ArrayValue qArray) {
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
            // Both backends normalise any non-zero finite quaternion (prescaled by a power of two, see
            // Rotations.fromQuaternion); the numbers are finite (the JSON reader refuses overflow).
            boolean zero = q[first] == 0 && q[first + 1] == 0 && q[first + 2] == 0 && q[first + 3] == 0;
            if (zero) {
                error(qArray.get(first), prefix + "the quaternion " + key + "[" + first + ".." + (first + 3)
                        + "] of joint '" + joint.name() + "' must be a unit quaternion (x, y, z, w); it is zero");
            }
        }
    }
}
