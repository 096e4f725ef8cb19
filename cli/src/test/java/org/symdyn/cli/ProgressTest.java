package org.symdyn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.symdyn.cli.SymDynCliTest.Result;

/**
 * The progress lines of the commands on long work, on standard error: present (with a grace period of 0, so that
 * every stage counts as long), at once for warnings, and absent with {@code --quiet}, which keeps the results.
 */
class ProgressTest {
    @TempDir
    Path dir;

    private String before;

    @BeforeEach
    void everyStageIsLong() {
        before = System.getProperty(Progress.AFTER_PROPERTY);
        System.setProperty(Progress.AFTER_PROPERTY, "0");
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(Progress.AFTER_PROPERTY);
        } else {
            System.setProperty(Progress.AFTER_PROPERTY, before);
        }
    }

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    /** The double pendulum with its first joint limited, the limits reversed: a model warning. */
    private Path odd() throws IOException {
        String odd = SimulateCommandTest.DOUBLE_PENDULUM.replace(
                "<joint name=\"j1\" type=\"continuous\"><parent link=\"base\"/><child link=\"l1\"/>"
                        + "<axis xyz=\"0 1 0\"/></joint>",
                "<joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"l1\"/>"
                        + "<axis xyz=\"0 1 0\"/><limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/></joint>");
        assertFalse(odd.equals(SimulateCommandTest.DOUBLE_PENDULUM), "the pendulum's first joint is as this test says");
        return write("odd.urdf", odd);
    }

    /** The index of the first line that starts with {@code prefix} and matches {@code regex} after it, or fails. */
    private static int line(List<String> lines, String prefix, String regex) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix) && lines.get(i).substring(prefix.length()).matches(regex)) {
                return i;
            }
        }
        throw new AssertionError("no line " + prefix + regex + " in\n" + String.join("\n", lines));
    }

    private static final String TIME = "\\d+ ms|\\d+\\.\\d s";

    @Test
    void generatePrintsEachStageAsItGoesAndTheWarningAtOnce() throws Exception {
        Path model = odd();
        String name = model.toString();
        Result r = SymDynCliTest.run("generate", name, "-d", dir.resolve("src").toString(), "-p", "gen");
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = r.errLines();
        int reading = line(lines, name + ": ", "reading \\.\\.\\.");
        int warning = line(lines, name + ":[", "\\d+,\\d+\\] warning: .*");
        int read = line(lines, name + ": ", "read in (" + TIME + ")");
        int deriving = line(lines, name + ": ", "deriving and emitting DoublePendulumDynamics \\.\\.\\.");
        int derived = line(lines, name + ": ", "derived and emitted in (" + TIME + ")");
        int checking = line(lines, name + ": ", "compile-checking DoublePendulumDynamics \\.\\.\\.");
        int checked = line(lines, name + ": ", "compile-checked in (" + TIME + ")");
        assertTrue(reading < warning && warning < read && read < deriving && deriving < derived
                && derived < checking && checking < checked, r.err());
        assertEquals(7, lines.size(), r.err());
        assertTrue(r.out().startsWith("gen.DoublePendulumDynamics: 2 dof"), r.out());

        Result quiet = SymDynCliTest.run("generate", name, "-d", dir.resolve("src2").toString(), "-p", "gen",
                "--quiet");
        assertEquals(0, quiet.exitCode(), quiet.err());
        assertEquals(List.of(lines.get(warning)), quiet.errLines(), "the warning only");
        assertTrue(quiet.out().startsWith("gen.DoublePendulumDynamics: 2 dof"), quiet.out());
    }

    @Test
    void evaluateOnTheGeneratedBackendPrintsItsStages() throws Exception {
        Path model = write("pendulum.urdf", SimulateCommandTest.DOUBLE_PENDULUM);
        Path states = write("states.json", "{\"states\": [{\"q\": [0.1, 0.2]}, {\"q\": [0.3, 0.4]}]}\n");
        String name = model.toString();
        Result r = SymDynCliTest.run("evaluate", name, "--states", states.toString(), "--backend", "generated");
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = r.errLines();
        int deriving = line(lines, name + ": ", "deriving and emitting DoublePendulumDynamics \\.\\.\\.");
        int derived = line(lines, name + ": ", "derived and emitted in (" + TIME + ")");
        int compiling = line(lines, name + ": ", "compiling DoublePendulumDynamics \\.\\.\\.");
        int compiled = line(lines, name + ": ", "compiled in (" + TIME + ")");
        int evaluating = line(lines, name + ": ", "evaluating 2 states \\.\\.\\.");
        int evaluated = line(lines, name + ": ", "evaluated in (" + TIME + ")");
        assertTrue(deriving < derived && derived < compiling && compiling < compiled && compiled < evaluating
                && evaluating < evaluated, r.err());

        Result quiet = SymDynCliTest.run("evaluate", name, "--states", states.toString(), "--backend", "generated",
                "-q");
        assertEquals(0, quiet.exitCode(), quiet.err());
        assertEquals("", quiet.err());
        assertEquals(r.out(), quiet.out());
    }

    /** Not on a terminal: a line per tenth of the steps at most (and every 5 s), then the end. */
    @Test
    void simulatePrintsPeriodicLinesWhenNotOnATerminal() throws Exception {
        Path model = write("block.urdf", SimulateCommandTest.BLOCK);
        Path initial = write("initial.json", "{\"q\": [0, 0, 0.05, 0, 0, 0, 1]}\n");
        String[] args = {"simulate", model.toString(), "--initial", initial.toString(), "--duration", "0.2",
            "--step", "0.001", "--every", "50"};
        Result r = SymDynCliTest.run(args);
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = r.errLines();
        List<String> meter = lines.stream().filter(l -> l.startsWith("simulating ")).toList();
        assertFalse(meter.isEmpty(), r.err());
        assertTrue(meter.size() <= 11, r.err());
        for (String l : meter) {
            assertTrue(l.matches("simulating +\\d+%  \\d+/200 steps  t = [0-9.]+ s  (" + TIME + ")( \\(("
                    + TIME + ") left\\))?"), l);
        }
        assertTrue(lines.get(lines.size() - 1).matches("simulated 200 steps \\(t = 0\\.2 s\\) in (" + TIME + ")"),
                r.err());
        assertFalse(r.err().contains("\r"), "no bar when standard error is not a terminal");

        String[] quietArgs = java.util.Arrays.copyOf(args, args.length + 1);
        quietArgs[args.length] = "--quiet";
        Result quiet = SymDynCliTest.run(quietArgs);
        assertEquals(0, quiet.exitCode(), quiet.err());
        assertEquals("", quiet.err());
        assertEquals(r.out(), quiet.out());
    }

    /** The counting meter's bar on a terminal: the count of rollouts instead of the simulated time. */
    @Test
    void onATerminalTheRolloutMeterCountsRollouts() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            StepMeter meter = StepMeter.counting(new Progress(err, false, true), 3000, "running", "ran", "rollouts");
            for (long i = 1; i <= 3000; i++) {
                meter.update(i);
                if (i % 1000 == 0) {
                    Thread.sleep(120);
                }
            }
            meter.finish(3000);
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        int bars = 0;
        for (String d : text.split("\r")) {
            if (d.startsWith("running [")) {
                bars++;
                assertTrue(d.matches("running \\[#*-*\\] +\\d+%  \\d+/3000 rollouts  (" + TIME + ")( \\((" + TIME
                        + ") left\\))?\u001b\\[K"), d);
                assertTrue(d.length() - 3 <= 80, "within 80 columns: " + d);
            }
        }
        assertTrue(bars >= 1, text);
        assertTrue(text.endsWith("\r\u001b[K" + "ran 3000 rollouts in " + text.substring(text.lastIndexOf(" in ") + 4)),
                text);
    }

    /** rollouts: a line per tenth of the rollouts at most, the last line, the summary; with --quiet nothing. */
    @Test
    void rolloutsCountsFinishedRolloutsAndQuietSilencesIt() throws Exception {
        Path model = write("block.urdf", SimulateCommandTest.BLOCK);
        Path sweep = write("sweep.json", "{\"duration\": 0.02, \"ranges\": {\"q0[2]\": {\"from\": 0.05, \"to\": 0.1,"
                + " \"count\": 20}}}");
        String[] args = {"rollouts", model.toString(), "--sweep", sweep.toString(), "--threads", "2"};
        Result r = SymDynCliTest.run(args);
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = r.errLines();
        List<String> meter = lines.stream().filter(l -> l.startsWith("running ")).toList();
        assertFalse(meter.isEmpty(), r.err());
        assertTrue(meter.size() <= 11, r.err());
        for (String l : meter) {
            assertTrue(l.matches("running +\\d+%  \\d+/20 rollouts  (" + TIME + ")( \\((" + TIME + ") left\\))?"),
                    l);
        }
        line(lines, "", "ran 20 rollouts in (" + TIME + ")");
        assertTrue(lines.get(lines.size() - 1).matches("rollouts: 20, failed: 0, steps: 400, wall time (" + TIME
                + "), \\d+ steps per second \\(2 threads\\)"), r.err());
        assertEquals(21, r.out().lines().count(), "the CSV on standard output");

        String[] quietArgs = java.util.Arrays.copyOf(args, args.length + 1);
        quietArgs[args.length] = "--quiet";
        Result quiet = SymDynCliTest.run(quietArgs);
        assertEquals(0, quiet.exitCode(), quiet.err());
        assertEquals("", quiet.err());
        assertEquals(r.out(), quiet.out());
    }

    /** On a terminal: one line redrawn in place, no more often than 10 times a second, cleared at the end. */
    @Test
    void onATerminalTheStepMeterIsOneBarRedrawnInPlace() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long start = System.nanoTime();
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            Progress progress = new Progress(err, false, true);
            StepMeter meter = new StepMeter(progress, 100_000, 1e-3);
            for (long i = 1; i <= 100_000; i++) {
                meter.update(i);
            }
            meter.finish(100_000);
        }
        double seconds = (System.nanoTime() - start) * 1e-9;
        String text = bytes.toString(StandardCharsets.UTF_8);
        String[] draws = text.split("\r");
        int bars = 0;
        for (String d : draws) {
            if (d.startsWith("simulating [")) {
                bars++;
                assertTrue(d.matches("simulating \\[#*-*\\] +\\d+%  t = [0-9.]+ / 100 s  (" + TIME + ")( \\(("
                        + TIME + ") left\\))?\u001b\\[K"), d);
                assertTrue(d.length() - 3 <= 80, "within 80 columns: " + d);
            }
        }
        assertTrue(bars >= 1 && bars <= 10 * seconds + 2, bars + " bars in " + seconds + " s");
        assertTrue(text.endsWith("\r\u001b[K" + "simulated 100000 steps (t = 100 s) in " + text.substring(
                text.lastIndexOf(" in ") + 4)), "the bar cleared, then the last line: " + text);

        ByteArrayOutputStream silent = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(silent, true, StandardCharsets.UTF_8)) {
            StepMeter meter = new StepMeter(new Progress(err, true, true), 1000, 1e-3);
            for (long i = 1; i <= 1000; i++) {
                meter.update(i);
            }
            meter.finish(1000);
        }
        assertEquals(0, silent.size(), "--quiet: nothing");
    }

    /**
     * With a grace period, a stage that ends within it prints nothing; one that outlasts it prints its start line
     * during the stage (from the timer), then its end.
     */
    @Test
    void aStagePrintsOnlyOnceItOutlastsTheGracePeriod() throws Exception {
        System.setProperty(Progress.AFTER_PROPERTY, "100");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            Progress progress = new Progress(err, false, false);
            progress.started("m.urdf: reading");
            progress.ended("m.urdf: read", 3);
            assertEquals("", bytes.toString(StandardCharsets.UTF_8), "a short stage says nothing");
            progress.started("m.urdf: deriving and emitting");
            long waited = 0;
            while (bytes.size() == 0 && waited < 60_000) {
                Thread.sleep(20);
                waited += 20;
            }
            assertEquals("m.urdf: deriving and emitting ...\n", bytes.toString(StandardCharsets.UTF_8),
                    "the start line, during the stage");
            progress.ended("m.urdf: derived and emitted", 1234);
            progress.warning("m.urdf:[3,4] warning: odd");
        }
        assertEquals("m.urdf: deriving and emitting ...\nm.urdf: derived and emitted in 1.2 s\n"
                + "m.urdf:[3,4] warning: odd\n", bytes.toString(StandardCharsets.UTF_8));
    }

    /** A stage that fails is started but never ended: once the command ends, its start line is never printed. */
    @Test
    void nothingIsPrintedAfterTheCommandEnds() throws Exception {
        System.setProperty(Progress.AFTER_PROPERTY, "100");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            Progress progress = new Progress(err, false, true);
            progress.bar("simulating [#---]");
            progress.started("m.urdf: deriving and emitting");
            progress.close();
            Thread.sleep(400);
        }
        assertEquals("\rsimulating [#---]\u001b[K\r\u001b[K", bytes.toString(StandardCharsets.UTF_8),
                "the bar cleared, no start line");
    }

    @Test
    void viewSaysWhatItWroteAndQuietKeepsTheResultLine() throws Exception {
        Path model = write("pendulum.urdf", SimulateCommandTest.DOUBLE_PENDULUM);
        Path trajectory = write("traj.json", "{\"t\": [0, 0.1], \"q\": [[0, 0], [0.1, 0.2]]}\n");
        Path page = dir.resolve("page.html");
        Result r = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o", page.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> lines = r.errLines();
        line(lines, model + ": ", "read in (" + TIME + ")");
        line(lines, trajectory + ": ", "read in (" + TIME + ")");
        line(lines, page + ": ", "computing the poses of 2 recorded states and writing \\.\\.\\.");
        line(lines, page + ": ", "written in (" + TIME + ")");
        assertTrue(r.out().startsWith(page + ": "), r.out());

        Result quiet = SymDynCliTest.run("view", trajectory.toString(), model.toString(), "-o", page.toString(),
                "--quiet");
        assertEquals(0, quiet.exitCode(), quiet.err());
        assertEquals("", quiet.err());
        assertEquals(r.out(), quiet.out());
    }

    @Test
    void quietIsRefusedWhereNothingProgresses() {
        Result r = SymDynCliTest.run("inspect", "m.urdf", "--quiet");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().startsWith("symdyn: option --quiet is only for "), r.err());
    }
}
