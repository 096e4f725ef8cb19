package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.symdyn.cli.SymDynCliTest.Result;
import org.symdyn.cli.json.JsonReader;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonValue.BooleanValue;
import org.symdyn.cli.json.JsonValue.NullValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.constraints.GenericModel;
import org.symdyn.model.Model;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.Outcomes;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.Rollouts;
import org.symdyn.rollout.SystemFactory;

/**
 * {@code symdyn rollouts}, run in-process: a sweep of friction × drop height of a block sliding onto a floor gives
 * the bits {@link Rollouts} gives for the same specifications, whatever the thread count; a failing rollout is a row;
 * random sweeps draw what the documented generator draws; bad input exits 2 with a located message.
 */
class RolloutsCommandTest extends FileWritingTest {
    private static final double DURATION = 0.2;
    private static final double STEP = 0.002;
    private static final double[] FRICTION = {0.2, 0.8};
    /** The grid's heights as documented: from + (to - from) k / (n - 1), the ends exact. */
    private static final double[] HEIGHT = {0.05, 0.05 + (0.15 - 0.05) * 1 / 2, 0.15};

    /** The block thrown along x at 1 m/s from a height: friction and height decide where it stops. */
    private static final String GRID_SWEEP = "{\n"
            + "  \"v0\": [0, 0, 0, 1, 0, 0],\n"
            + "  \"duration\": " + DURATION + ", \"step\": " + STEP + ", \"seed\": 7,\n"
            + "  \"ranges\": {\n"
            + "    \"friction\": {\"values\": [0.2, 0.8]},\n"
            + "    \"q0[2]\": {\"from\": 0.05, \"to\": 0.15, \"count\": 3}\n"
            + "  }\n"
            + "}\n";

    private Path block() throws IOException {
        return write("block.urdf", SimulateCommandTest.BLOCK);
    }

    private static void assertCleanFailure(Result r) {
        assertEquals(2, r.exitCode(), r.err());
        assertEquals("", r.out());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(r.err().isBlank());
    }

    /** The CSV's rows, fields split at commas (the test's fields hold none, failure messages aside). */
    private static List<String[]> csv(Path file) throws IOException {
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            rows.add(line.split(",", -1));
        }
        return rows;
    }

    private List<RolloutResult<FinalState>> direct(Path model, List<RolloutSpec> specs) throws CliException {
        Model m = ModelLoader.load(model, false, false);
        Rollouts rollouts = Rollouts.builder(new GenericModel(m), SystemFactory.of(m)).threads(1).build();
        return rollouts.run(specs, Outcomes.finalState());
    }

    @Test
    void aGridSweepGivesTheBitsOfRolloutsRunDirectly() throws Exception {
        Path model = block();
        Path sweep = write("sweep.json", GRID_SWEEP);
        Path csv = dir.resolve("results.csv");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o", csv.toString(),
                "--threads", "2", "--quiet");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("rollouts: 6, failed: 0, steps: 600, wall time "), r.out());
        assertTrue(r.out().contains("steps per second (2 threads)"), r.out());

        // the documented grid: the friction slowest, the height fastest, seeds SplitMix64(7, i)
        List<RolloutSpec> specs = new ArrayList<>();
        for (double mu : FRICTION) {
            for (double z : HEIGHT) {
                TreeMap<String, Double> p = new TreeMap<>();
                p.put("friction", mu);
                specs.add(new RolloutSpec(new double[] {0, 0, z, 0, 0, 0, 1}, new double[] {0, 0, 0, 1, 0, 0}, p,
                        splitMix64(7, specs.size()), DURATION, STEP));
            }
        }
        List<RolloutResult<FinalState>> expected = direct(model, specs);

        List<String[]> rows = csv(csv);
        Model m = ModelLoader.load(model, false, false);
        List<String> header = new ArrayList<>(List.of("index", "friction", "q0[2]", "failed", "failure", "steps",
                "t"));
        m.qNames().forEach(n -> header.add("q." + n));
        m.vNames().forEach(n -> header.add("v." + n));
        assertEquals(header, List.of(rows.get(0)));
        assertEquals(7, rows.size());
        for (int i = 0; i < 6; i++) {
            String[] row = rows.get(i + 1);
            FinalState f = expected.get(i).outcome();
            assertEquals(Integer.toString(i), row[0]);
            assertEquals(FRICTION[i / 3], Double.parseDouble(row[1]));
            assertEquals(HEIGHT[i % 3], Double.parseDouble(row[2]));
            assertEquals("false", row[3]);
            assertEquals("", row[4]);
            assertEquals(Long.toString(expected.get(i).steps()), row[5]);
            double[] q = new double[m.nq()];
            double[] v = new double[m.nv()];
            for (int k = 0; k < q.length; k++) {
                q[k] = Double.parseDouble(row[7 + k]);
            }
            for (int k = 0; k < v.length; k++) {
                v[k] = Double.parseDouble(row[7 + q.length + k]);
            }
            FinalState parsed = new FinalState(Double.parseDouble(row[6]), q, v);
            assertTrue(parsed.sameBits(f), "rollout " + i + ": " + parsed + " vs " + f);
        }
        // physics, to know the sweep swept: more friction stops the block sooner at every height
        for (int h = 0; h < 3; h++) {
            double slow = expected.get(h).outcome().q()[0];
            double grippy = expected.get(3 + h).outcome().q()[0];
            assertTrue(grippy < slow - 0.01, "height " + HEIGHT[h] + ": x " + grippy + " (mu 0.8) vs " + slow);
        }
    }

    /** A rollout runs the system simulate runs: the block thrown onto the floor ends where simulate ends it. */
    @Test
    void aRolloutEndsWhereSimulateEnds() throws Exception {
        Path model = block();
        Path initial = write("initial.json", "{\"q\": [0, 0, 0.12, 0, 0, 0, 1], \"v\": [0, 0, 0, 1, 0, 0]}");
        Result simulated = SymDynCliTest.run("simulate", model.toString(), "--initial", initial.toString(),
                "--duration", "0.3", "--step", "0.002", "--every", "150");
        assertEquals(0, simulated.exitCode(), simulated.err());
        ObjectValue trajectory = (ObjectValue) simulated.json();
        List<JsonValue> q = ((JsonValue.ArrayValue) trajectory.get("q")).elements();
        List<JsonValue> v = ((JsonValue.ArrayValue) trajectory.get("v")).elements();
        Path specs = write("specs.json", "[{\"q0\": [0, 0, 0.12, 0, 0, 0, 1], \"v0\": [0, 0, 0, 1, 0, 0],"
                + " \"duration\": 0.3, \"step\": 0.002}]");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "--format", "jsonl",
                "-q");
        assertEquals(0, r.exitCode(), r.err());
        ObjectValue line = (ObjectValue) JsonReader.parse("out", r.out().trim());
        assertEquals(q.get(q.size() - 1), line.get("q"));
        assertEquals(v.get(v.size() - 1), line.get("v"));
        // it landed and slid: the test is of contact, not of free flight
        assertTrue(SimulateCommandTest.numbers(line.get("q"))[0] < 0.25, r.out());
        assertEquals(0.05, SimulateCommandTest.numbers(line.get("q"))[2], 1e-3, r.out());
    }

    /** {@code --no-constraints}: the block held at a corner by a row rolls out as the block without the row. */
    @Test
    void noConstraintsLeavesTheModelsRowsOut() throws Exception {
        Path held = write("held.urdf", SimulateCommandTest.BLOCK.replace("</robot>",
                "  <symdyn:contact name=\"hold_x\" link=\"box\" point=\"0.05 0.05 -0.05\" normal=\"1 0 0\"/>\n</robot>"));
        Path specs = write("specs.json", "[{\"q0\": [0, 0, 0.05, 0, 0, 0, 1], \"v0\": [0, 0, 0, 2, 0, 0],"
                + " \"duration\": 0.1, \"step\": 0.001}]");
        String[] out = new String[3];
        String[][] runs = {{held.toString()}, {held.toString(), "--no-constraints"}, {block().toString()}};
        for (int k = 0; k < 3; k++) {
            List<String> args = new ArrayList<>(List.of("rollouts"));
            args.addAll(List.of(runs[k]));
            args.addAll(List.of("--specs", specs.toString(), "--format", "jsonl", "-q"));
            Result r = SymDynCliTest.run(args.toArray(new String[0]));
            assertEquals(0, r.exitCode(), r.err());
            out[k] = ((ObjectValue) JsonReader.parse("out", r.out().trim())).get("q").toString();
        }
        assertEquals(out[2], out[1], "the row left out");
        assertNotEquals(out[2], out[0], "the row held");
    }

    /** As simulate warns ({@link LimitViolations}): the first rollout starting beyond a limit, and a count of the rest. */
    /** A helper's findings: each of these was accepted, or found only after every rollout had run. */
    @Test
    void badBatchesAreRefusedBeforeAnythingRuns() throws Exception {
        Path model = block();
        // 1e19 steps wrapped the step count round to Long.MIN_VALUE: "completed" at t = 0 with exit 0
        Path overflow = write("overflow.json", "[{\"duration\": 1e10, \"step\": 1e-9}]");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--specs", overflow.toString(), "-q");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains(overflow + ":[1,29] specification 0: duration 10000000000 s in steps of 1.0E-9 s"
                + " is more than the 100000000 steps a rollout may take (as for simulate)"), r.err());
        // 1e12 steps of the default step ran for minutes with no word: refused as simulate refuses it
        Path tooLong = write("long.json", "[{\"duration\": 1e9}]");
        r = SymDynCliTest.run("rollouts", model.toString(), "--specs", tooLong.toString(), "-q");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("duration 1000000000 s in steps of 0.001 s is more than the 100000000 steps"),
                r.err());
        // an output in a directory that does not exist: refused first, with the reason
        Path specs = write("specs.json", "[{\"duration\": 0.01}]");
        Path nowhere = dir.resolve("no-such-dir").resolve("r.csv");
        r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "-o", nowhere.toString());
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("does not exist"), r.err());
        assertFalse(r.err().contains("ran 1 rollout"), r.err());
        // q0[2] and q0[02] name one entry
        Path alias = write("alias.json", "{\"ranges\": {\"q0[2]\": {\"values\": [0.1, 0.2]}, \"q0[02]\":"
                + " {\"values\": [0.7]}}, \"duration\": 0.01}");
        r = SymDynCliTest.run("rollouts", model.toString(), "--sweep", alias.toString(), "-q");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("q0[02] is the entry q0[2] names already"), r.err());
        // one grid point cannot hold both ends ("to" was dropped without a word), and a range runs upward
        Path one = write("one.json", "{\"ranges\": {\"friction\": {\"from\": 1, \"to\": 3, \"count\": 1}},"
                + " \"duration\": 0.01}");
        r = SymDynCliTest.run("rollouts", model.toString(), "--sweep", one.toString(), "-q");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("count 1 cannot include both \"from\" 1.0 and \"to\" 3.0"), r.err());
        Path down = write("down.json", "{\"mode\": \"random\", \"count\": 2, \"ranges\": {\"friction\":"
                + " {\"from\": 3, \"to\": 1}}, \"duration\": 0.01}");
        r = SymDynCliTest.run("rollouts", model.toString(), "--sweep", down.toString(), "-q");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("\"to\" 1.0 is below \"from\" 3.0"), r.err());
        // a grid runs downward as well as upward
        Path grid = write("downward.json", "{\"ranges\": {\"friction\": {\"from\": 0.9, \"to\": 0.1, \"count\": 3}},"
                + " \"duration\": 0.004}");
        r = SymDynCliTest.run("rollouts", model.toString(), "--sweep", grid.toString(), "-q");
        assertEquals(0, r.exitCode(), r.err());
    }

    /**
     * A sweep over v0 entries of a loop gives velocities the loop does not hold: said once for the first rollout, at
     * the loop, and counted for the rest (the first step's impulse corrected them without a word).
     */
    @Test
    void rolloutsStartingOffTheConstraintsAreWarnedAboutOnce() throws Exception {
        Path model = write("fourbar.urdf", Files.readString(Path.of(System.getProperty("user.dir"))
                .resolveSibling("samples").resolve("src/main/symdyn/fourbar.urdf")));
        double[] q = SimulateCommandTest.fourBarClosed(1);
        Path sweep = write("v0.json", "{\"q0\": [" + q[0] + ", " + q[1] + ", " + q[2] + "], \"duration\": 0.002,"
                + " \"ranges\": {\"v0[0]\": {\"values\": [0.5, 1, 2]}}}");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "--format", "jsonl");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("fourbar.urdf:[47,3] warning: rollout 0: constraint 'closure' does not hold at the"
                + " initial state: the initial velocities move its row"), r.err());
        assertTrue(r.err().contains("2 more rollouts start off the model's constraints"), r.err());
    }

    /**
     * A rollout's seed as the output writes it (a string of a 64-bit integer, past 2^53) is taken back by --specs and
     * written out again the same (a rollout whose sensors a controller reads is replayed from it; this model has no
     * sensors, so the test checks the seed's way in and out only).
     */
    @Test
    void aSeedFromTheOutputIsTakenBack() throws Exception {
        Path model = block();
        Path sweep = write("seeds.json", "{\"mode\": \"random\", \"count\": 2, \"seed\": 5, \"duration\": 0.004,"
                + " \"ranges\": {\"friction\": {\"from\": 0.1, \"to\": 0.9}}}");
        Path out = dir.resolve("seeds.jsonl");
        assertEquals(0, SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o",
                out.toString(), "--format", "jsonl", "-q").exitCode());
        String line = Files.readAllLines(out).get(1);
        String seed = line.replaceAll(".*\"seed\":\"(-?[0-9]+)\".*", "$1");
        assertTrue(Math.abs(Double.parseDouble(seed)) > 0x1p53, "a seed past 2^53: " + seed);
        Path specs = write("replay.json", "[{\"seed\": \"" + seed + "\", \"duration\": 0.004}]");
        Path replay = dir.resolve("replay.jsonl");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "-o",
                replay.toString(), "--format", "jsonl", "-q");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(Files.readAllLines(replay).get(0).contains("\"seed\":\"" + seed + "\""),
                Files.readAllLines(replay).get(0));
        Path bad = write("bad_seed.json", "[{\"seed\": \"seven\", \"duration\": 0.004}]");
        r = SymDynCliTest.run("rollouts", model.toString(), "--specs", bad.toString(), "-q");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("or a string of a 64-bit integer"), r.err());
    }

    @Test
    void rolloutsStartingBeyondALimitAreWarnedAboutOnce() throws Exception {
        Path model = write("limited.urdf", SimulateCommandTest.LIMITED_PENDULUM);
        Path specs = write("specs.json", "[{\"q0\": [0.5, 0], \"duration\": 0.01, \"step\": 0.001},\n"
                + " {\"q0\": [1.5, 0], \"duration\": 0.01, \"step\": 0.001},\n"
                + " {\"q0\": [-2, 0], \"duration\": 0.01, \"step\": 0.001},\n"
                + " {\"q0\": [3, 0], \"duration\": 0.01, \"step\": 0.001}]");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "--format", "jsonl",
                "-q");
        assertEquals(0, r.exitCode(), r.err());
        List<String> warnings = r.errLines().stream().filter(l -> l.contains("warning")).toList();
        assertEquals(2, warnings.size(), r.err());
        assertTrue(warnings.get(0).startsWith(model + ":[4,3] warning: rollout 1: joint 'j1' starts at q = 1.5,"
                + " beyond its upper limit 1 by 0.5"), warnings.get(0));
        assertEquals("warning: 2 more rollouts start with a joint beyond its limit", warnings.get(1));
        assertEquals(4, r.out().trim().split("\n").length, "every rollout still runs");
    }

    /**
     * A helper's finding: a model parameter named like a built-in rollout parameter takes it over silently (a
     * specification's "kp": 5 set a link's mass). It is warned about, at the parameter's line.
     */
    @Test
    void aModelParameterNamedLikeABuiltInIsWarnedAbout() throws Exception {
        Path model = write("kp.urdf", SimulateCommandTest.BLOCK.replace("</robot>",
                "  <symdyn:parameter name=\"kp\" link=\"box\" field=\"mass\"/>\n</robot>"));
        Path specs = write("specs.json", "[{\"q0\": [0, 0, 0.05, 0, 0, 0, 1], \"duration\": 0.002, \"step\": 0.001,"
                + " \"parameters\": {\"kp\": 2}}]");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "--format", "jsonl",
                "-q");
        assertEquals(0, r.exitCode(), r.err());
        List<String> warnings = r.errLines().stream().filter(l -> l.contains("warning")).toList();
        assertEquals(1, warnings.size(), r.err());
        assertTrue(warnings.get(0).startsWith(model + ":[15,3] warning: parameter 'kp' has the name of a built-in"
                + " rollout parameter"), warnings.get(0));
    }

    @Test
    void oneThreadAndTwoThreadsWriteTheSameFiles() throws Exception {
        Path model = block();
        Path sweep = write("sweep.json", GRID_SWEEP);
        for (String ext : List.of("csv", "jsonl")) {
            Path one = dir.resolve("one." + ext);
            Path two = dir.resolve("two." + ext);
            assertEquals(0, SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o",
                    one.toString(), "--threads", "1", "-q").exitCode());
            assertEquals(0, SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o",
                    two.toString(), "--threads", "2", "-q").exitCode());
            assertArrayEquals(Files.readAllBytes(one), Files.readAllBytes(two), ext);
        }
    }

    @Test
    void jsonLinesHoldTheSameNumbersAsTheCsv() throws Exception {
        Path model = block();
        Path sweep = write("sweep.json", GRID_SWEEP);
        Path csv = dir.resolve("r.csv");
        Path jsonl = dir.resolve("r.jsonl");
        assertEquals(0, SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o",
                csv.toString(), "-q").exitCode());
        assertEquals(0, SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o",
                jsonl.toString(), "-q").exitCode());
        List<String[]> rows = csv(csv);
        List<String> lines = Files.readAllLines(jsonl, StandardCharsets.UTF_8);
        assertEquals(rows.size() - 1, lines.size());
        for (int i = 0; i < lines.size(); i++) {
            ObjectValue o = (ObjectValue) JsonReader.parse("line " + i, lines.get(i));
            String[] row = rows.get(i + 1);
            assertEquals(i, SimulateCommandTest.number(o.get("index")));
            assertEquals(Long.toString(splitMix64(7, i)), ((JsonValue.StringValue) o.get("seed")).value());
            ObjectValue swept = (ObjectValue) o.get("swept");
            assertEquals(Double.parseDouble(row[1]), SimulateCommandTest.number(swept.get("friction")));
            assertEquals(Double.parseDouble(row[2]), SimulateCommandTest.number(swept.get("q0[2]")));
            assertFalse(((BooleanValue) o.get("failed")).value());
            assertTrue(o.get("failure") instanceof NullValue);
            double[] q = SimulateCommandTest.numbers(o.get("q"));
            for (int k = 0; k < q.length; k++) {
                assertEquals(Double.doubleToRawLongBits(Double.parseDouble(row[7 + k])),
                        Double.doubleToRawLongBits(q[k]));
            }
        }
    }

    @Test
    void aFailingSpecificationIsARowAndTheOthersComplete() throws Exception {
        Path model = block();
        Path specs = write("specs.json", "[\n"
                + "  {\"q0\": [0, 0, 0.1, 0, 0, 0, 1], \"duration\": 0.1, \"step\": 0.002},\n"
                + "  {\"q0\": [0, 0, 0.1, 0, 0, 0, 1], \"parameters\": {\"friction\": -1}, \"duration\": 0.1},\n"
                + "  {\"q0\": [0, 0, 0.2, 0, 0, 0, 1], \"duration\": 0.1, \"step\": 0.002, \"seed\": 5}\n"
                + "]\n");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "--threads", "2",
                "--quiet");
        assertEquals(0, r.exitCode(), r.err());
        // results on standard output; the summary is information, silent under --quiet
        assertEquals("", r.err());
        String[] lines = r.out().split("\n");
        assertEquals(4, lines.length, r.out());
        assertTrue(lines[0].startsWith("index,friction,failed,failure,steps,t,"), lines[0]);
        assertTrue(lines[1].startsWith("0,,false,,50,"), lines[1]);
        assertTrue(lines[2].startsWith("1,-1.0,true,INVALID_SPEC: parameter friction = -1.0: friction must be"
                + " a finite number >= 0,"), lines[2]);
        int columns = lines[0].split(",", -1).length;
        assertEquals(6 + 7 + 6, columns, lines[0]);
        for (String line : lines) {
            assertEquals(columns, line.split(",", -1).length, line);
        }
        assertTrue(lines[2].endsWith(",0" + ",".repeat(14)), "no final state for the failed rollout: " + lines[2]);
        assertTrue(lines[3].startsWith("2,,false,,50,"), lines[3]);

        List<RolloutSpec> direct = List.of(
                RolloutSpec.of(new double[] {0, 0, 0.1, 0, 0, 0, 1}, new double[6], 0.1, 0.002),
                new RolloutSpec(new double[] {0, 0, 0.2, 0, 0, 0, 1}, new double[6], new TreeMap<>(), 5, 0.1, 0.002));
        List<RolloutResult<FinalState>> expected = direct(model, direct);
        String[] last = lines[3].split(",", -1);
        assertEquals(Double.toString(expected.get(1).outcome().q()[2]), last[5 + 1 + 2]);
    }

    @Test
    void theSummaryGoesToStandardErrorWhenTheResultsGoToStandardOutput() throws Exception {
        Path model = block();
        Path specs = write("specs.json", "[{\"duration\": 0.01}]");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "--format", "jsonl");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().startsWith("rollouts: 1, failed: 0, steps: 10, wall time "), r.err());
        ObjectValue o = (ObjectValue) JsonReader.parse("out", r.out().trim());
        assertEquals(0.01, SimulateCommandTest.number(o.get("t")), 1e-15);
        // the default seed of a specification is its index
        assertEquals("0", ((JsonValue.StringValue) o.get("seed")).value());
    }

    @Test
    void aRandomSweepDrawsWithTheDocumentedGenerator() throws Exception {
        Path model = block();
        String text = "{\"mode\": \"random\", \"count\": 20, \"seed\": -3, \"duration\": 0.004,"
                + " \"ranges\": {\"friction\": {\"from\": 0.1, \"to\": 0.9}, \"q0[2]\": {\"values\": [0.2, 0.3]}}}";
        Path sweep = write("random.json", text);
        Path out = dir.resolve("random.csv");
        assertEquals(0, SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o",
                out.toString(), "-q").exitCode());
        List<String[]> rows = csv(out);
        assertEquals(21, rows.size());
        boolean low = false;
        boolean high = false;
        for (int i = 0; i < 20; i++) {
            long seed = splitMix64(-3, i);
            double u0 = (splitMix64(~seed, 0) >>> 11) * 0x1p-53;
            double u1 = (splitMix64(~seed, 1) >>> 11) * 0x1p-53;
            double mu = Double.parseDouble(rows.get(i + 1)[1]);
            double z = Double.parseDouble(rows.get(i + 1)[2]);
            assertEquals(0.1 + 0.8 * u0, mu);
            assertEquals(u1 < 0.5 ? 0.2 : 0.3, z);
            assertTrue(mu >= 0.1 && mu < 0.9, "friction " + mu);
            low |= z == 0.2;
            high |= z == 0.3;
        }
        assertTrue(low && high, "both listed values drawn in 20 rollouts");
        // a larger count keeps the first rollouts
        Path more = write("more.json", text.replace("\"count\": 20", "\"count\": 25"));
        Path moreOut = dir.resolve("more.csv");
        assertEquals(0, SymDynCliTest.run("rollouts", model.toString(), "--sweep", more.toString(), "-o",
                moreOut.toString(), "-q").exitCode());
        List<String> a = Files.readAllLines(out);
        List<String> b = Files.readAllLines(moreOut);
        assertEquals(a, b.subList(0, a.size()));
    }

    /**
     * The generated backend (compiled once, a copy per thread) gives the generic backend's final states to rounding
     * and is as independent of the thread count.
     */
    @Test
    void theGeneratedBackendAgreesWithTheGenericOne() throws Exception {
        Path model = block();
        Path sweep = write("sweep.json", GRID_SWEEP);
        Path generic = dir.resolve("generic.csv");
        Path one = dir.resolve("one.csv");
        Path two = dir.resolve("two.csv");
        assertEquals(0, SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o",
                generic.toString(), "-q").exitCode());
        for (Path out : List.of(one, two)) {
            Result r = SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o",
                    out.toString(), "-q", "--backend", "generated", "--threads", out == one ? "1" : "2");
            assertEquals(0, r.exitCode(), r.err());
        }
        assertArrayEquals(Files.readAllBytes(one), Files.readAllBytes(two));
        List<String[]> a = csv(generic);
        List<String[]> b = csv(one);
        double worst = 0;
        for (int i = 1; i < a.size(); i++) {
            for (int k = 6; k < a.get(i).length; k++) {
                worst = Math.max(worst, Math.abs(Double.parseDouble(a.get(i)[k]) - Double.parseDouble(b.get(i)[k])));
            }
        }
        System.out.println("rollouts: generated vs generic backend, worst |difference| of t, q, v: " + worst);
        assertTrue(worst < 1e-9, "generated vs generic " + worst);
    }

    @Test
    void theOutcomePageIsSelfContained() throws Exception {
        Path page = outcomePage(dir);
        String html = Files.readString(page, StandardCharsets.UTF_8);
        assertFalse(html.contains("/*SYMDYN_DATA*/null"));
        assertFalse(html.contains("http://") && !html.contains("http://www.w3.org/2000/svg"), "no network");
        assertFalse(html.contains("https://"), "no network");
        assertFalse(html.contains("<script src"), "no external script");
        assertTrue(html.contains("\"columns\": [\"friction\", \"q0[2]\"]"), html);
        // the base height (q index 2 of the floating block) is plotted first
        assertTrue(html.contains("\"entry\": 2"), html);
        assertTrue(html.contains("\"failed\": [false,false,false,false,false,false]"), html);
    }

    /** Writes the outcome page of the grid sweep in {@code dir}: also for the browser test. */
    static Path outcomePage(Path dir) throws IOException {
        Path model = dir.resolve("block.urdf");
        Files.writeString(model, SimulateCommandTest.BLOCK, StandardCharsets.UTF_8);
        Path sweep = dir.resolve("sweep.json");
        Files.writeString(sweep, GRID_SWEEP, StandardCharsets.UTF_8);
        Path page = dir.resolve("outcome.html");
        Result r = SymDynCliTest.run("rollouts", model.toString(), "--sweep", sweep.toString(), "-o",
                dir.resolve("o.csv").toString(), "--page", page.toString(), "-q");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains(page + ": "), r.out());
        return page;
    }

    // ---- bad input: exit 2, located, no stack trace ----

    private Result rollouts(String flag, Path file, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("rollouts", block().toString(), flag, file.toString()));
        args.addAll(Arrays.asList(more));
        return SymDynCliTest.run(args.toArray(String[]::new));
    }

    @Test
    void aMissingFileIsBadInput() throws Exception {
        Result r = rollouts("--specs", dir.resolve("nothing.json"));
        assertCleanFailure(r);
        assertEquals(dir.resolve("nothing.json") + ":[0,0] cannot read file: no such file\n", r.err());
    }

    @Test
    void malformedJsonIsLocated() throws Exception {
        Path f = write("bad.json", "[\n  {\"duration\": 0.1,}\n]\n");
        Result r = rollouts("--specs", f);
        assertCleanFailure(r);
        assertTrue(r.err().startsWith(f + ":[2,"), r.err());
    }

    @Test
    void anUnknownParameterIsLocatedBeforeAnythingRuns() throws Exception {
        Path f = write("specs.json", "[\n  {\"parameters\": {\"friction\": 0.5}},\n  {\"parameters\": {\"mu\": 0.5}}\n"
                + "]\n");
        Result r = rollouts("--specs", f);
        assertCleanFailure(r);
        assertEquals(f + ":[3,25] specification 1: unknown parameter 'mu' (the names are friction)\n",
                r.err());
        Path s = write("sweep.json", "{\"ranges\": {\n  \"kp\": {\"values\": [1]}}}");
        r = rollouts("--sweep", s);
        assertCleanFailure(r);
        assertTrue(r.err().startsWith(s + ":[2,9] ranges: unknown parameter 'kp' (the names are friction;"),
                r.err());
    }

    @Test
    void aWrongQ0LengthIsLocated() throws Exception {
        Path f = write("specs.json", "[{\"q0\": [0, 0, 0.1]}]");
        Result r = rollouts("--specs", f);
        assertCleanFailure(r);
        assertEquals(f + ":[1,9] specification 0: q0 has 3 numbers, expected nq = 7\n", r.err());
        Path s = write("sweep.json", "{\"ranges\": {\"q0[7]\": {\"values\": [1]}}}");
        r = rollouts("--sweep", s);
        assertCleanFailure(r);
        assertTrue(r.err().contains("ranges: q0[7] is beyond the state: q0 has nq = 7 entries"), r.err());
    }

    @Test
    void aNegativeCountIsLocated() throws Exception {
        Path grid = write("grid.json", "{\"ranges\": {\"friction\": {\"from\": 0, \"to\": 1, \"count\": -2}}}");
        Result r = rollouts("--sweep", grid);
        assertCleanFailure(r);
        assertEquals(grid + ":[1,55] ranges.friction: count must be at least 1, not -2\n", r.err());
        Path random = write("random.json", "{\"mode\": \"random\", \"count\": -1}");
        r = rollouts("--sweep", random);
        assertCleanFailure(r);
        assertEquals(random + ":[1,29] count must be at least 1, not -1\n", r.err());
    }

    @Test
    void otherSweepMistakesAreLocated() throws Exception {
        Path f = write("sweep.json", "{\"mode\": \"grid\", \"count\": 3, \"keyframe\": \"home\","
                + " \"ranges\": {\"friction\": {\"from\": 0, \"to\": 1}}, \"seed\": 0.5}");
        Result r = rollouts("--sweep", f);
        assertCleanFailure(r);
        List<String> lines = List.of(r.err().split("\n"));
        assertEquals(4, lines.size(), r.err());
        assertTrue(lines.get(0).contains("\"count\" is for mode \"random\""), r.err());
        assertTrue(lines.get(1).contains("keyframe: "), r.err());
        assertTrue(lines.get(2).contains("ranges.friction: a grid range needs \"count\""), r.err());
        assertTrue(lines.get(3).contains("seed must be an integer"), r.err());
        // A helper's findings: 2^53 + 1 read as 2^53 silently; 40 ranges of 1e7 points built their values before the
        // product was refused (3.4 GB, 76 ranges ran out of memory); a range of +-1e308 made infinite points
        Path seed = write("seed.json", "{\"seed\": 9007199254740993, \"ranges\": {\"friction\": {\"values\": [1]}}}");
        r = rollouts("--sweep", seed);
        assertCleanFailure(r);
        assertTrue(r.err().contains("seed must be an integer below 2^53"), r.err());
        StringBuilder many = new StringBuilder("{\"ranges\": {\"friction\": {\"from\": 0, \"to\": 1, \"count\": 1000000}");
        for (int k = 0; k < 6; k++) {
            many.append(", \"v0[").append(k).append("]\": {\"from\": -1e308, \"to\": 1e308, \"count\": 1000000}");
        }
        Path huge = write("huge.json", many.append("}}").toString());
        long t0 = System.nanoTime();
        r = rollouts("--sweep", huge);
        assertCleanFailure(r);
        assertTrue(r.err().contains("the sweep makes more than 1000000 rollouts"), r.err());
        assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "refused before anything is built");
        // (to - from) k overflowing: the points stay in the interval
        Path wide = write("wide.json", "{\"duration\": 0, \"ranges\": {\"v0[3]\": {\"from\": 0, \"to\": 1e308,"
                + " \"count\": 4}}}");
        r = rollouts("--sweep", wide, "-q");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(!r.out().contains("Infinity") && r.out().contains("1.0E308"), r.out());
    }

    @Test
    void usageErrorsExitTwo() throws Exception {
        Path model = block();
        Path specs = write("specs.json", "[{}]");
        Result r = SymDynCliTest.run("rollouts", model.toString());
        assertCleanFailure(r);
        assertTrue(r.err().startsWith("symdyn: rollouts needs --specs FILE.json or --sweep FILE.json\n"), r.err());
        r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "--sweep", specs.toString());
        assertCleanFailure(r);
        r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "--threads", "0");
        assertCleanFailure(r);
        assertTrue(r.err().startsWith("symdyn: --threads must be 1 to 4096, not 0\n"), r.err());
        // 2^31 - 1 threads ran out of memory (exit 1)
        r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "--threads", "2147483647");
        assertCleanFailure(r);
        assertTrue(r.err().startsWith("symdyn: --threads must be 1 to 4096, not 2147483647\n"), r.err());
        r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "--format", "xml");
        assertCleanFailure(r);
        r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "-o", dir.toString());
        assertCleanFailure(r);
        assertEquals(dir + ":[0,0] cannot write file: it is a directory\n", r.err());
        Path nowhere = dir.resolve("no-such-dir").resolve("r.csv");
        r = SymDynCliTest.run("rollouts", model.toString(), "--specs", specs.toString(), "-o", nowhere.toString(),
                "-q");
        assertCleanFailure(r);
        assertTrue(r.err().startsWith(nowhere + ":[0,0] cannot write file: "), r.err());
    }

    /** SplitMix64's output for index i of the stream from seed (Steele, Lea, Flood 2014), written out again here. */
    static long splitMix64(long seed, long i) {
        long z = seed + (i + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
