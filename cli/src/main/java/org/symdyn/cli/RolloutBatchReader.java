package org.symdyn.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.symdyn.cli.json.JsonException;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.NumberValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.StringValue;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.model.InitialState;
import org.symdyn.model.Model;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.Rollouts;

/**
 * Reads the batch of {@code symdyn rollouts}: a list of specifications ({@code --specs}) or a sweep that generates
 * them ({@code --sweep}), checked against the model (state sizes, keyframes, quaternions) and the parameter names its
 * system takes; every problem is reported, located, before anything runs.
 *
 * <p><b>Specifications</b> ({@code --specs}): an array of objects, each with the keys (all optional)
 * <pre>
 *   "q0": [nq numbers]      default: the model's reference configuration (the neutral one, zero joints and
 *                           identity quaternions, or an MJCF file's qpos0)
 *   "v0": [nv numbers]      default: zeros
 *   "keyframe": NAME        q0 and v0 from the model's initial state NAME (then "q0" and "v0" may not be given)
 *   "parameters": {NAME: number, ...}   RolloutParameters' names: the model's parameters, friction, kp, kd,
 *                                       kp.SERVO, kd.SERVO, target.SERVO
 *   "seed": integer         the sensors' noise seed; default the specification's index (a string of a 64-bit
 *                           integer too, as the output writes each rollout's seed)
 *   "duration": seconds     default {@value #DEFAULT_DURATION} (&ge; 0)
 *   "step": seconds         default {@value #DEFAULT_STEP} (&gt; 0)
 * </pre>
 * The columns of the results are the parameter names any specification sets, sorted.
 *
 * <p><b>Sweep</b> ({@code --sweep}): one object with the base of every specification ("q0", "v0" or "keyframe",
 * "parameters" held fixed, "duration", "step", as above), {@code "seed"} (an integer, default 0), {@code "mode"}
 * ({@code "grid"}, the default, or {@code "random"}), {@code "count"} (random mode only: the number of rollouts) and
 * {@code "ranges"}: an object whose keys are parameter names or initial-state entries {@code "q0[i]"} / {@code
 * "v0[i]"} (0-based, i &lt; nq or nv) and whose values are {@code {"values": [numbers]}} or {@code {"from": a,
 * "to": b, "count": n}} (grid; n &ge; 1 points a + (b − a) k / (n − 1), the last exactly b, downward too; n = 1
 * needs a = b)
 * or {@code {"from": a, "to": b}} (random). In grid mode the specifications are the Cartesian product of the ranges,
 * in the order of their keys with the last varying fastest; in random mode rollout i draws each range's value, in
 * the order of the keys, uniformly: u in [0, 1) from a 53-bit SplitMix64 output, a + (b − a) u, or the values' entry
 * ⌊u · count⌋. Seeds: rollout i's seed is s_i = SplitMix64(seed, i), the output function of seed + (i + 1) γ
 * ({@link Rollouts#sensorSeed}), and its j-th draw (0-based) is SplitMix64(¬s_i, j) (the complement, so that its draws
 * are not its sensors' seeds). Rollout i is a function of the file and i alone, the same on every machine, and a
 * larger random count keeps the first rollouts. The columns of the results are the ranges' keys.
 *
 * <p>Seeds are integers below 2<sup>53</sup> in magnitude (JSON numbers are read as doubles, and 2<sup>53</sup> + 1
 * reads as 2<sup>53</sup>, so that one is refused too). A batch holds at
 * least one and at most {@value #MAX_ROLLOUTS} rollouts.
 */
final class RolloutBatchReader {
    /** The duration of a specification that gives none, s. */
    static final double DEFAULT_DURATION = 1.0;
    /** The step of a specification that gives none, s (the runtime's default). */
    static final double DEFAULT_STEP = 0.001;
    /**
     * The most rollouts a batch may hold: what a default heap carries (a helper measured 5.6 GB at the peak for a
     * million quadruped drops, and 10 million, the bound before, never finished in 6.3 GB; the results are kept
     * until the batch ends).
     */
    static final long MAX_ROLLOUTS = 1_000_000L;
    /** The largest integer a JSON number (a double) holds exactly. */
    private static final double MAX_EXACT = 0x1p53;

    static final String GRID = "grid";
    static final String RANDOM = "random";

    private static final List<String> SPEC_KEYS = List.of("q0", "v0", "keyframe", "parameters", "seed", "duration",
            "step");
    private static final List<String> SWEEP_KEYS = List.of("q0", "v0", "keyframe", "parameters", "duration", "step",
            "seed", "mode", "count", "ranges");
    private static final Pattern STATE_ENTRY = Pattern.compile("(q0|v0)\\[(\\d{1,9})\\]");

    /**
     * The batch: its specifications in order, the names of the columns that tell them apart (swept parameters and
     * state entries) and each specification's value in each column ({@code values[i][c]}, NaN where a specification
     * does not set column c).
     */
    record Batch(List<RolloutSpec> specs, List<String> columns, double[][] values) {
    }

    private final Model model;
    private final List<String> parameterNames;
    private final JsonChecks checks;

    private RolloutBatchReader(String path, Model model, List<String> parameterNames) {
        this.model = model;
        this.parameterNames = parameterNames;
        this.checks = new JsonChecks(path, model);
    }

    /**
     * Reads a specifications file ({@code --specs}).
     *
     * @param parameterNames the names the model's system takes ({@code RolloutParameters.names})
     * @throws CliException every problem found, located (exit code 2)
     */
    static Batch readSpecs(Path file, Model model, List<String> parameterNames) throws CliException {
        RolloutBatchReader reader = new RolloutBatchReader(file.toString(), model, parameterNames);
        Batch batch = reader.specs(parse(file));
        reader.checks.throwIfAny();
        return batch;
    }

    /**
     * Reads a sweep file ({@code --sweep}) and makes its specifications.
     *
     * @throws CliException every problem found, located (exit code 2)
     */
    static Batch readSweep(Path file, Model model, List<String> parameterNames) throws CliException {
        RolloutBatchReader reader = new RolloutBatchReader(file.toString(), model, parameterNames);
        Batch batch = reader.sweep(parse(file));
        reader.checks.throwIfAny();
        return batch;
    }

    private static JsonValue parse(Path file) throws CliException {
        try {
            return JsonReader.read(file);
        } catch (JsonException e) {
            throw CliException.badInput(e.getMessage());
        }
    }

    private Batch specs(JsonValue root) {
        if (!(root instanceof ArrayValue array)) {
            checks.error(root, "a specifications file holds an array of specifications [{\"q0\": [...], ...}, ...],"
                    + " not " + root.typeWithArticle());
            return null;
        }
        if (array.size() == 0) {
            checks.error(root, "the file holds no specifications: nothing to run");
            return null;
        }
        if (array.size() > MAX_ROLLOUTS) {
            checks.error(root, "the file holds " + array.size() + " specifications, more than " + MAX_ROLLOUTS);
            return null;
        }
        List<RolloutSpec> specs = new ArrayList<>();
        TreeSet<String> columns = new TreeSet<>();
        for (int i = 0; i < array.size(); i++) {
            String prefix = "specification " + i + ": ";
            JsonValue value = array.get(i);
            if (!(value instanceof ObjectValue o)) {
                checks.error(value, prefix + "a specification is an object {\"q0\": [...], \"parameters\": {...},"
                        + " ...}, not " + value.typeWithArticle());
                continue;
            }
            unknownKeys(prefix, o, SPEC_KEYS);
            Base base = base(prefix, o);
            Long seed = integer(prefix, o, "seed", i);
            if (base != null && seed != null) {
                specs.add(new RolloutSpec(base.q0, base.v0, base.parameters, seed, base.duration, base.step));
                columns.addAll(base.parameters.keySet());
            }
        }
        List<String> names = List.copyOf(columns);
        double[][] values = new double[specs.size()][names.size()];
        for (int i = 0; i < specs.size(); i++) {
            for (int c = 0; c < names.size(); c++) {
                Double v = specs.get(i).parameters().get(names.get(c));
                values[i][c] = v == null ? Double.NaN : v;
            }
        }
        return new Batch(specs, names, values);
    }

    /** One swept quantity: its key, its listed values (or null) or its interval and grid count. */
    /**
     * One swept quantity: its listed values, or its interval [from, to] with a grid's point count (n points, made
     * only as each rollout takes one, so that a product of counts past the limit is refused before anything is made:
     * 76 ranges of 1e7 points each once ran out of memory building their values first).
     */
    private record Range(String key, int qIndex, int vIndex, double[] values, double from, double to, long count) {
        Range(String key, int qIndex, int vIndex, double[] values, double from, double to) {
            this(key, qIndex, vIndex, values, from, to, values == null ? 0 : values.length);
        }

        /** Point k of the grid (listed values, or from + (to − from) k / (n − 1), the last exactly to). */
        double gridValue(long k) {
            if (values != null) {
                return values[(int) k];
            }
            if (k == 0 || k == count - 1) {
                return k == 0 ? from : to;
            }
            double x = from + (to - from) * k / (count - 1);
            return Double.isFinite(x) ? x : between((double) k / (count - 1)); // (to - from) k overflowed
        }

        /**
         * from + (to − from) t, and where to − from overflows (a range of ±1e308) a weighted mean that does not: a
         * point of the interval, never ±Infinity.
         */
        double between(double t) {
            double x = from + (to - from) * t;
            return Double.isFinite(x) ? x : from * (1 - t) + to * t;
        }
    }

    private Batch sweep(JsonValue root) {
        if (!(root instanceof ObjectValue o)) {
            checks.error(root, "a sweep is an object {\"ranges\": {...}, \"mode\": \"grid\", ...}, not "
                    + root.typeWithArticle());
            return null;
        }
        int before = checks.count();
        unknownKeys("", o, SWEEP_KEYS);
        Base base = base("", o);
        Long seed = integer("", o, "seed", 0);
        String mode = GRID;
        JsonValue modeValue = o.get("mode");
        if (modeValue != null) {
            if (modeValue instanceof StringValue s && (s.value().equals(GRID) || s.value().equals(RANDOM))) {
                mode = s.value();
            } else {
                checks.error(modeValue, "mode must be \"" + GRID + "\" or \"" + RANDOM + "\", not "
                        + describe(modeValue));
            }
        }
        boolean random = mode.equals(RANDOM);
        Long count = null;
        JsonValue countValue = o.get("count");
        if (random) {
            if (countValue == null) {
                checks.error(o, "a random sweep needs \"count\": the number of rollouts to draw");
            } else {
                count = count("", o, "count");
            }
        } else if (countValue != null) {
            checks.error(countValue, "\"count\" is for mode \"random\"; a grid has the product of its ranges'"
                    + " counts");
        }
        List<Range> ranges = ranges(o.get("ranges"), random, base);
        if (checks.count() > before || base == null || seed == null) {
            return null;
        }
        long total;
        if (random) {
            total = count;
        } else {
            total = 1;
            for (Range r : ranges) {
                total = r.count > MAX_ROLLOUTS || total * r.count > MAX_ROLLOUTS ? MAX_ROLLOUTS + 1
                        : total * r.count;
            }
        }
        if (total > MAX_ROLLOUTS) {
            checks.error(o, "the sweep makes more than " + MAX_ROLLOUTS + " rollouts");
            return null;
        }
        int n = (int) total;
        List<RolloutSpec> specs = new ArrayList<>(n);
        List<String> columns = ranges.stream().map(Range::key).toList();
        double[][] values = new double[n][ranges.size()];
        for (int i = 0; i < n; i++) {
            long specSeed = Rollouts.sensorSeed(seed, i);
            double[] q0 = base.q0.clone();
            double[] v0 = base.v0.clone();
            TreeMap<String, Double> parameters = new TreeMap<>(base.parameters);
            long rest = i;
            for (int j = ranges.size() - 1; j >= 0 && !random; j--) {
                long size = ranges.get(j).count;
                values[i][j] = ranges.get(j).gridValue(rest % size);
                rest /= size;
            }
            for (int j = 0; j < ranges.size() && random; j++) {
                Range r = ranges.get(j);
                double u = (Rollouts.sensorSeed(~specSeed, j) >>> 11) * 0x1p-53;
                values[i][j] = r.values != null ? r.values[(int) (u * r.values.length)] : r.between(u);
            }
            for (int j = 0; j < ranges.size(); j++) {
                Range r = ranges.get(j);
                if (r.qIndex >= 0) {
                    q0[r.qIndex] = values[i][j];
                } else if (r.vIndex >= 0) {
                    v0[r.vIndex] = values[i][j];
                } else {
                    parameters.put(r.key, values[i][j]);
                }
            }
            specs.add(new RolloutSpec(q0, v0, parameters, specSeed, base.duration, base.step));
        }
        return new Batch(specs, columns, values);
    }

    private List<Range> ranges(JsonValue value, boolean random, Base base) {
        List<Range> ranges = new ArrayList<>();
        if (value == null) {
            return ranges;
        }
        if (!(value instanceof ObjectValue o)) {
            checks.error(value, "ranges must be an object {NAME: {\"values\": [...]} or {\"from\", \"to\"...}, ...},"
                    + " not " + value.typeWithArticle());
            return ranges;
        }
        Map<String, String> stateEntries = new java.util.HashMap<>();
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            String key = e.getKey();
            String prefix = "ranges." + key + ": ";
            int qIndex = -1;
            int vIndex = -1;
            Matcher m = STATE_ENTRY.matcher(key);
            if (m.matches()) {
                boolean q = m.group(1).equals("q0");
                int index = Integer.parseInt(m.group(2));
                // q0[0] and q0[00] name one entry: the later range overwrote it, and its column showed values the
                // rollouts did not start from
                String earlier = stateEntries.putIfAbsent(m.group(1) + "[" + index + "]", key);
                if (earlier != null) {
                    checks.error(e.getValue(), "ranges: " + key + " is the entry " + earlier + " names already");
                    continue;
                }
                int size = q ? model.nq() : model.nv();
                if (index >= size) {
                    checks.error(e.getValue(), "ranges: " + key + " is beyond the state: " + m.group(1) + " has "
                            + (q ? "nq" : "nv") + " = " + size + " entries (0-based)");
                    continue;
                }
                if (q) {
                    qIndex = index;
                } else {
                    vIndex = index;
                }
            } else if (!parameterNames.contains(key)) {
                checks.error(e.getValue(), "ranges: " + unknown(key) + " (the names are "
                        + String.join(", ", parameterNames) + "; or q0[i], v0[i] for an initial-state entry)");
                continue;
            } else if (base != null && base.parameters.containsKey(key)) {
                checks.error(e.getValue(), "ranges: parameter '" + key + "' is also held fixed in \"parameters\"");
                continue;
            }
            Range r = range(prefix, e.getValue(), random, key, qIndex, vIndex);
            if (r != null) {
                ranges.add(r);
            }
        }
        return ranges;
    }

    private Range range(String prefix, JsonValue value, boolean random, String key, int qIndex, int vIndex) {
        if (!(value instanceof ObjectValue o)) {
            checks.error(value, prefix + "a range is {\"values\": [...]} or {\"from\": a, \"to\": b"
                    + (random ? "" : ", \"count\": n") + "}, not " + value.typeWithArticle());
            return null;
        }
        int before = checks.count();
        unknownKeys(prefix, o, List.of("values", "from", "to", "count"));
        JsonValue list = o.get("values");
        if (list != null) {
            for (String k : List.of("from", "to", "count")) {
                if (o.get(k) != null) {
                    checks.error(o.get(k), prefix + "give either \"values\" or \"from\"/\"to\"" + (random ? ""
                            : "/\"count\"") + ", not both");
                }
            }
            if (!(list instanceof ArrayValue a) || a.size() == 0) {
                checks.error(list, prefix + "values must be a non-empty array of numbers, not "
                        + (list instanceof ArrayValue ? "an empty array" : list.typeWithArticle()));
                return null;
            }
            double[] values = new double[a.size()];
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i) instanceof NumberValue nv) {
                    values[i] = nv.value();
                } else {
                    checks.error(a.get(i), prefix + "values[" + i + "] must be a number, not "
                            + a.get(i).typeWithArticle());
                }
            }
            return checks.count() > before ? null : new Range(key, qIndex, vIndex, values, Double.NaN, Double.NaN);
        }
        Double from = number(prefix, o, "from", null);
        Double to = number(prefix, o, "to", null);
        if (o.get("from") == null || o.get("to") == null) {
            checks.error(o, prefix + "a range needs \"values\", or \"from\" and \"to\"" + (random ? ""
                    : " and \"count\""));
            return null;
        }
        if (random && from != null && to != null && from > to) {
            checks.error(o.get("to"), prefix + "\"to\" " + to + " is below \"from\" " + from + " (a random range"
                    + " draws from [from, to))");
        }
        if (random) {
            if (o.get("count") != null) {
                checks.error(o.get("count"), prefix + "\"count\" is for mode \"grid\"; a random sweep's count is"
                        + " the sweep's \"count\"");
            }
            return checks.count() > before ? null : new Range(key, qIndex, vIndex, null, from, to);
        }
        if (o.get("count") == null) {
            checks.error(o, prefix + "a grid range needs \"count\" (the number of points from \"from\" to \"to\")"
                    + " or \"values\"");
            return null;
        }
        Long count = count(prefix, o, "count");
        if (checks.count() > before || count == null) {
            return null;
        }
        if (count > MAX_ROLLOUTS) {
            checks.error(o.get("count"), prefix + "count " + count + " is more than " + MAX_ROLLOUTS);
            return null;
        }
        if (count == 1 && from.doubleValue() != to.doubleValue()) {
            // n points include both ends: one point cannot, and taking "from" alone dropped "to" without a word
            checks.error(o.get("count"), prefix + "count 1 cannot include both \"from\" " + from + " and \"to\" "
                    + to + " (give count 2 or more, or \"values\": [" + from + "])");
            return null;
        }
        return new Range(key, qIndex, vIndex, null, from, to, count);
    }

    /** What every specification of a file or sweep shares: initial state, fixed parameters, duration and step. */
    private record Base(double[] q0, double[] v0, TreeMap<String, Double> parameters, double duration, double step) {
    }

    /** The base of a specification or sweep, null (with problems recorded) when bad. */
    private Base base(String prefix, ObjectValue o) {
        int before = checks.count();
        double[] q0;
        double[] v0;
        JsonValue keyframe = o.get("keyframe");
        if (keyframe != null) {
            q0 = null;
            v0 = null;
            for (String key : List.of("q0", "v0")) {
                if (o.get(key) != null) {
                    checks.error(o.get(key), prefix + "\"" + key + "\" is given by \"keyframe\"; give one or the"
                            + " other");
                }
            }
            if (!(keyframe instanceof StringValue name)) {
                checks.error(keyframe, prefix + "keyframe must be the name of one of the model's initial states, not "
                        + keyframe.typeWithArticle());
            } else {
                try {
                    InitialState state = model.initialState(name.value());
                    q0 = state.q();
                    v0 = state.v();
                } catch (IllegalArgumentException e) {
                    checks.error(keyframe, prefix + "keyframe: " + e.getMessage());
                }
            }
        } else {
            q0 = o.get("q0") == null ? model.referenceConfiguration()
                    : checks.vector(prefix, o, "q0", "nq", model.nq(), true);
            if (q0 != null && o.get("q0") != null) {
                checks.checkQuaternions(prefix, "q0", q0, (ArrayValue) o.get("q0"));
            }
            v0 = checks.vector(prefix, o, "v0", "nv", model.nv(), false);
        }
        TreeMap<String, Double> parameters = parameters(prefix, o.get("parameters"));
        Double duration = number(prefix, o, "duration", DEFAULT_DURATION);
        if (duration != null && duration < 0) {
            checks.error(o.get("duration"), prefix + "duration must be a number of seconds >= 0, not "
                    + JsonWriter.formatNumber(duration));
        }
        Double step = number(prefix, o, "step", DEFAULT_STEP);
        if (step != null && !(step > 0)) {
            checks.error(o.get("step"), prefix + "step must be a positive number of seconds, not "
                    + JsonWriter.formatNumber(step));
        }
        if (duration != null && step != null && duration >= 0 && step > 0
                && !(duration / step <= SimulateCommand.MAX_STEPS)) {
            checks.error(o.get("step") != null ? o.get("step") : o.get("duration"), prefix + "duration "
                    + JsonWriter.formatNumber(duration) + " s in steps of " + JsonWriter.formatNumber(step)
                    + " s is more than the " + SimulateCommand.MAX_STEPS + " steps a rollout may take (as for"
                    + " simulate)");
        }
        if (checks.count() > before) {
            return null;
        }
        return new Base(q0, v0, parameters, duration, step);
    }

    private static String unknown(String name) {
        return "unknown parameter '" + name + "'";
    }

    /** The fixed parameters ({@code {NAME: number}}; empty when absent), names checked. */
    private TreeMap<String, Double> parameters(String prefix, JsonValue value) {
        TreeMap<String, Double> parameters = new TreeMap<>();
        if (value == null) {
            return parameters;
        }
        if (!(value instanceof ObjectValue o)) {
            checks.error(value, prefix + "parameters must be an object {NAME: number, ...}, not "
                    + value.typeWithArticle());
            return parameters;
        }
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            if (!parameterNames.contains(e.getKey())) {
                checks.error(e.getValue(), prefix + unknown(e.getKey()) + " (the names are "
                        + String.join(", ", parameterNames) + ")");
            } else if (e.getValue() instanceof NumberValue n) {
                parameters.put(e.getKey(), n.value());
            } else {
                checks.error(e.getValue(), prefix + "parameter '" + e.getKey() + "' must be a number, not "
                        + e.getValue().typeWithArticle());
            }
        }
        return parameters;
    }

    private void unknownKeys(String prefix, ObjectValue o, List<String> known) {
        for (Map.Entry<String, JsonValue> member : o.members().entrySet()) {
            if (!known.contains(member.getKey())) {
                checks.error(member.getValue(), prefix + "unknown key '" + member.getKey() + "' (expected "
                        + String.join(", ", known) + ")");
            }
        }
    }

    /** The number under {@code key}, {@code absent} when missing, null (a problem recorded) when not a number. */
    private Double number(String prefix, ObjectValue o, String key, Double absent) {
        JsonValue value = o.get(key);
        if (value == null) {
            return absent;
        }
        if (value instanceof NumberValue n) {
            return n.value();
        }
        checks.error(value, prefix + key + " must be a number, not " + value.typeWithArticle());
        return null;
    }

    /** The integer under {@code key} (|x| &lt; 2^53), {@code absent} when missing, null (recorded) when bad. */
    private Long integer(String prefix, ObjectValue o, String key, long absent) {
        JsonValue value = o.get(key);
        if (value == null) {
            return absent;
        }
        // below 2^53: the double of a larger integer's text may round to one it is not (2^53 + 1 reads as 2^53)
        if (value instanceof NumberValue n && n.value() == Math.rint(n.value()) && Math.abs(n.value()) < MAX_EXACT) {
            return (long) n.value();
        }
        // a seed as the output writes it: a string of any 64-bit integer, so a rollout is replayed by its seed
        if (key.equals("seed") && value instanceof StringValue text) {
            try {
                return Long.parseLong(text.value().trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        checks.error(value, prefix + key + " must be an integer below 2^53 in magnitude" + (key.equals("seed")
                ? ", or a string of a 64-bit integer (as the output writes seeds)" : "") + ", not " + describe(value));
        return null;
    }

    /** A count: an integer &ge; 1 under {@code key} (present), or null (recorded). */
    private Long count(String prefix, ObjectValue o, String key) {
        Long n = integer(prefix, o, key, 0);
        if (n != null && n < 1) {
            checks.error(o.get(key), prefix + key + " must be at least 1, not " + n);
            return null;
        }
        return n;
    }

    /** A value for a message: a number or string as written, else its type. */
    private static String describe(JsonValue value) {
        if (value instanceof NumberValue n) {
            return JsonWriter.formatNumber(n.value());
        }
        if (value instanceof StringValue s) {
            return "\"" + s.value() + "\"";
        }
        return value.typeWithArticle();
    }
}
