package org.symdyn.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.io.Messages;
import org.symdyn.model.LidarModel;
import org.symdyn.model.Model;

/**
 * Reads a trajectory file of {@code symdyn simulate} for {@code symdyn view} and checks it against the model.
 *
 * <p>Required: {@code "t"} (numbers, not decreasing) and {@code "q"} (one array of nq numbers per time). Optional:
 * {@code "v"} (one array of nv numbers per time) and {@code "contacts"} (per time an array of objects with
 * {@code "position": [x, y, z]} and {@code "normal_impulse"}, and optionally {@code "name"}, {@code "ground"}
 * and {@code "normal": [x, y, z]}, the world direction of the force on the second body), and {@code "sensors"} (per
 * sensor, one array of readings per time; a Lidar of the model has rows × samples readings, its ranges by ray
 * index row × samples + k). Other keys ({@code "solver"}, ...) are ignored. Every problem is reported as
 * {@code path:[line,col] message}.
 */
final class TrajectoryReader {
    /**
     * One recorded time's contact, as the viewer draws it: the world point (m), the normal impulse (N s) and the
     * unit normal in world coordinates along which the second body is pushed (null when the file gives none).
     */
    record Contact(String name, String ground, double[] position, double normalImpulse, double[] normal) {
    }

    /**
     * A trajectory: times, configurations, velocities (null when absent), contacts per time (empty lists when
     * absent), sensor channels as signals by name ("imu.fz", or "imu[5]" without channel names; empty when
     * absent), and the ranges of the model's Lidars by name (per time, rayCount distances in m; a Lidar's
     * readings are there and not among the signals).
     */
    record Trajectory(double[] t, double[][] q, double[][] v, List<List<Contact>> contacts,
            java.util.Map<String, double[]> sensorSignals, java.util.Map<String, double[][]> lidarRanges) {
    }

    /**
     * The largest trajectory read (256 MiB), four times a model or states file's: simulate records every step by
     * default (60 s of ramp_box at 1 ms is 121 MB), and writing its page takes some 17 times the file's size in
     * memory (a helper measured about 1 GB for a 60 MB file), so that this bound stays within the default heap of a
     * machine with 24 GB.
     */
    static final int MAX_TRAJECTORY_BYTES = 256 << 20;

    private final Model model;
    private final JsonChecks checks;

    private TrajectoryReader(String path, Model model) {
        this.model = model;
        this.checks = new JsonChecks(path, model);
    }

    /**
     * @throws CliException every problem of the file (exit code 2)
     */
    static Trajectory read(Path file, Model model) throws CliException {
        JsonValue root;
        try {
            root = JsonReader.read(file, MAX_TRAJECTORY_BYTES, "a trajectory (record fewer states: symdyn"
                    + " simulate --every N keeps every N-th step)");
        } catch (JsonException e) {
            throw CliException.badInput(e.getMessage());
        }
        TrajectoryReader reader = new TrajectoryReader(file.toString(), model);
        Trajectory trajectory = reader.trajectory(root);
        reader.checks.throwIfAny();
        if (trajectory == null) {
            throw new IllegalStateException("no trajectory and no problem recorded for " + file);
        }
        return trajectory;
    }

    private Trajectory trajectory(JsonValue root) {
        if (!(root instanceof JsonValue.ObjectValue object)) {
            error(root, "a trajectory is an object {\"t\": [...], \"q\": [[...], ...], ...} (symdyn simulate's"
                    + " output), not " + root.typeWithArticle());
            return null;
        }
        JsonValue tValue = object.get("t");
        JsonValue qValue = object.get("q");
        if (tValue == null) {
            error(root, "missing \"t\": expected the recorded times (symdyn simulate's output)");
        }
        if (qValue == null) {
            error(root, "missing \"q\": expected one configuration per recorded time (symdyn simulate's output)");
        }
        if (tValue == null || qValue == null) {
            return null;
        }
        double[] t = numbers(tValue, "t", -1, null);
        if (t == null) {
            return null;
        }
        if (t.length == 0) {
            error(tValue, "t is empty: nothing to show");
            return null;
        }
        for (int i = 1; i < t.length; i++) {
            if (t[i] < t[i - 1]) {
                error(((JsonValue.ArrayValue) tValue).get(i), "t[" + i + "] = " + JsonWriter.formatNumber(t[i]) + " is before t["
                        + (i - 1) + "] = " + JsonWriter.formatNumber(t[i - 1]) + " (times must not decrease)");
                return null;
            }
        }
        String floatingHint = model.hasFloatingBase() ? "" : " (was it simulated with --floating?)";
        // a trajectory of another model with as many coordinates animated that model's links with these numbers
        if (object.get("q_names") instanceof JsonValue.ArrayValue names) {
            List<String> written = strings(names);
            if (written != null && written.size() == model.nq() && !written.equals(model.qNames())) {
                error(names, "the trajectory's coordinates " + Messages.cut(String.valueOf(written)) + " are not"
                        + " model " + model.name() + "'s " + Messages.cut(String.valueOf(model.qNames())) + ": view it"
                        + " with the model it was simulated with");
                return null;
            }
        }
        double[][] q = rows(qValue, "q", t.length, model.nq(), "nq", floatingHint);
        JsonValue vValue = object.get("v");
        double[][] v = vValue == null ? null : rows(vValue, "v", t.length, model.nv(), "nv", floatingHint);
        List<List<Contact>> contacts = contacts(object.get("contacts"), t.length);
        java.util.Map<String, double[][]> lidarRanges = new java.util.LinkedHashMap<>();
        java.util.Map<String, double[]> sensors = sensors(object.get("sensors"), object.get("sensor_channels"),
                t.length, lidarRanges);
        if (checks.count() > 0) {
            return null;
        }
        return new Trajectory(t, q, v, contacts, sensors, lidarRanges);
    }

    /**
     * Every sensor's channels as signals (one value per recorded time), in file order; the readings of the model's
     * Lidars go to {@code lidarRanges} instead.
     */
    private java.util.Map<String, double[]> sensors(JsonValue value, JsonValue channelNames, int count,
            java.util.Map<String, double[][]> lidarRanges) {
        java.util.Map<String, double[]> signals = new java.util.LinkedHashMap<>();
        if (value == null) {
            return signals;
        }
        if (!(value instanceof JsonValue.ObjectValue object)) {
            error(value, "sensors must be an object {\"name\": [[...], ...]}, not " + value.typeWithArticle());
            return signals;
        }
        for (java.util.Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            String key = "sensors." + e.getKey();
            if (!(e.getValue() instanceof JsonValue.ArrayValue readings)) {
                error(e.getValue(), key + " must be an array of readings (one per recorded time), not "
                        + e.getValue().typeWithArticle());
                continue;
            }
            if (readings.size() != count) {
                error(readings, key + " has " + readings.size() + (readings.size() == 1 ? " reading" : " readings")
                        + ", expected one per recorded time (" + count + ", as t)");
                continue;
            }
            int width = readings.get(0) instanceof JsonValue.ArrayValue first ? first.size() : -1;
            LidarModel lidar = lidar(e.getKey());
            if (lidar != null && width != lidar.rayCount()) {
                error(readings.get(0), key + "[0] has " + width + (width == 1 ? " number" : " numbers")
                        + ", expected one range per ray of lidar " + e.getKey() + " (" + lidar.rows() + " rows × "
                        + lidar.samples() + " samples = " + lidar.rayCount() + ")");
                continue;
            }
            double[][] rows = new double[count][];
            boolean ok = true;
            for (int i = 0; i < count && ok; i++) {
                int before = checks.count();
                rows[i] = numbers(readings.get(i), key + "[" + i + "]", width, width + " numbers, as " + key + "[0]");
                ok = checks.count() == before;
            }
            if (!ok) {
                continue;
            }
            if (lidar != null) {
                lidarRanges.put(e.getKey(), rows);
                continue;
            }
            List<String> names = channelNames instanceof JsonValue.ObjectValue c
                    && c.get(e.getKey()) instanceof JsonValue.ArrayValue a && a.size() == width ? strings(a) : null;
            for (int j = 0; j < width; j++) {
                double[] column = new double[count];
                for (int i = 0; i < count; i++) {
                    column[i] = rows[i][j];
                }
                signals.put(names != null ? names.get(j) : e.getKey() + "[" + j + "]", column);
            }
        }
        return signals;
    }

    /** The model's Lidar of that name, or null. */
    private LidarModel lidar(String name) {
        for (LidarModel l : model.scene().lidars()) {
            if (l.name().equals(name)) {
                return l;
            }
        }
        return null;
    }

    /** The strings of an array, or null when one is not a string. */
    private static List<String> strings(JsonValue.ArrayValue array) {
        List<String> list = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            if (!(array.get(i) instanceof JsonValue.StringValue s)) {
                return null;
            }
            list.add(s.value());
        }
        return list;
    }

    private List<List<Contact>> contacts(JsonValue value, int count) {
        List<List<Contact>> all = new ArrayList<>(count);
        if (value == null) {
            for (int i = 0; i < count; i++) {
                all.add(List.of());
            }
            return all;
        }
        if (!(value instanceof JsonValue.ArrayValue array)) {
            error(value, "contacts must be an array (per recorded time, an array of contacts), not "
                    + value.typeWithArticle());
            return all;
        }
        if (array.size() != count) {
            error(array, "contacts has " + array.size() + (array.size() == 1 ? " entry" : " entries")
                    + ", expected one per recorded time (" + count + ", as t)");
            return all;
        }
        for (int i = 0; i < count; i++) {
            JsonValue step = array.get(i);
            List<Contact> list = new ArrayList<>();
            if (!(step instanceof JsonValue.ArrayValue contacts)) {
                error(step, "contacts[" + i + "] must be an array of contacts, not " + step.typeWithArticle());
                all.add(list);
                continue;
            }
            for (int k = 0; k < contacts.size(); k++) {
                String what = "contacts[" + i + "][" + k + "]";
                JsonValue c = contacts.get(k);
                if (!(c instanceof JsonValue.ObjectValue contact)) {
                    error(c, what + " must be an object {\"position\": [x, y, z], \"normal_impulse\": ...}, not "
                            + c.typeWithArticle());
                    continue;
                }
                JsonValue p = contact.get("position");
                JsonValue n = contact.get("normal_impulse");
                if (p == null) {
                    error(c, what + ": missing \"position\"");
                }
                if (n == null) {
                    error(c, what + ": missing \"normal_impulse\"");
                } else if (!(n instanceof JsonValue.NumberValue)) {
                    error(n, what + ".normal_impulse must be a number, not " + n.typeWithArticle());
                }
                double[] position = p == null ? null : numbers(p, what + ".position", 3, "3 (x, y, z)");
                JsonValue nv = contact.get("normal");
                int before = checks.count();
                double[] normal = nv == null ? null : numbers(nv, what + ".normal", 3, "3 (x, y, z)");
                if (position != null && n instanceof JsonValue.NumberValue impulse && checks.count() == before) {
                    list.add(new Contact(string(contact.get("name")), string(contact.get("ground")), position,
                            impulse.value(), normal));
                }
            }
            all.add(list);
        }
        return all;
    }

    private static String string(JsonValue value) {
        return value instanceof JsonValue.StringValue s ? s.value() : "";
    }

    /** count rows of size numbers each, or null (errors recorded). */
    private double[][] rows(JsonValue value, String key, int count, int size, String sizeName, String hint) {
        if (!(value instanceof JsonValue.ArrayValue array)) {
            error(value, key + " must be an array of arrays (one per recorded time), not " + value.typeWithArticle());
            return null;
        }
        if (array.size() != count) {
            error(array, key + " has " + array.size() + (array.size() == 1 ? " entry" : " entries")
                    + ", expected one per recorded time (" + count + ", as t)");
            return null;
        }
        double[][] rows = new double[count][];
        boolean ok = true;
        boolean zeroQuaternion = false;
        for (int i = 0; i < count; i++) {
            JsonValue row = array.get(i);
            if (row instanceof JsonValue.ArrayValue a && a.size() != size) {
                // a length mismatch: say it once with a hint, not for every row
                error(row, key + "[" + i + "] has " + a.size() + (a.size() == 1 ? " number" : " numbers")
                        + ", expected " + sizeName + " = " + size + " of model " + model.name() + hint);
                return null;
            }
            rows[i] = numbers(row, key + "[" + i + "]", size, sizeName + " = " + size);
            if (rows[i] == null) {
                ok = false;
            } else if (key.equals("q") && !zeroQuaternion) {
                int before = checks.count();
                checks.checkQuaternions("", key + "[" + i + "]", rows[i], (JsonValue.ArrayValue) row);
                // the first row with a zero quaternion only, not every one of a long recording
                zeroQuaternion = checks.count() > before;
            }
        }
        return ok ? rows : null;
    }

    /** An array of numbers (of {@code size} numbers unless size &lt; 0), or null with errors recorded. */
    private double[] numbers(JsonValue value, String what, int size, String expected) {
        if (!(value instanceof JsonValue.ArrayValue array)) {
            error(value, what + " must be an array of numbers, not " + value.typeWithArticle());
            return null;
        }
        if (size >= 0 && array.size() != size) {
            error(array, what + " has " + array.size() + (array.size() == 1 ? " number" : " numbers") + ", expected "
                    + expected);
            return null;
        }
        double[] result = new double[array.size()];
        boolean ok = true;
        for (int i = 0; i < result.length; i++) {
            JsonValue e = array.get(i);
            if (e instanceof JsonValue.NumberValue n) {
                result[i] = n.value();
            } else {
                error(e, what + "[" + i + "] must be a number, not " + e.typeWithArticle());
                ok = false;
            }
        }
        return ok ? result : null;
    }

    private void error(JsonValue at, String message) {
        checks.error(at, message);
    }
}
