package org.symdyn.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.generator.GenerationProgress;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.rollout.FinalState;
import org.symdyn.rollout.Outcomes;
import org.symdyn.rollout.RolloutParameters;
import org.symdyn.rollout.RolloutResult;
import org.symdyn.rollout.RolloutSpec;
import org.symdyn.rollout.Rollouts;
import org.symdyn.rollout.SystemFactory;
import org.symdyn.systems.TimeSteppingSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code symdyn rollouts}: a batch of rollouts of one model on every core ({@link Rollouts}), from a list of
 * specifications ({@code --specs}) or a sweep that generates them ({@code --sweep}; both formats in
 * {@link RolloutBatchReader}), each run on the system {@code simulate} runs for the model ({@link SystemFactory#of}:
 * time stepping with the model's grounds, shapes (pairs overlapping at q0 left out), joint limits, constraints,
 * damping and declared devices) without a controller; the first rollout that starts with a joint beyond its limit
 * is warned about as {@code simulate} warns, and the others counted. Writes each rollout's final state, or its
 * failure, one line per rollout in index order ({@link RolloutTable}: CSV, or JSON lines), and optionally a page that
 * plots an outcome against each swept column ({@link OutcomePage}).
 *
 * <p>The results do not depend on {@code --threads}: a rollout is a function of its specification alone. Parameter
 * names are checked before anything runs, against those of the model's system built once
 * ({@link RolloutParameters#names}). A rollout that fails (a non-finite state, a Painlevé case, a refused parameter
 * value, an unconverged solve with {@code --fail-on-unconverged}) is a row with {@code failed} true and the others
 * complete; the exit code is 0 unless the input is bad (2).
 */
@Command(name = "rollouts", sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 100,
        header = "Run a batch of rollouts on every core and write their final states (CSV or JSON lines).",
        description = {
            "Runs each rollout of --specs FILE.json, or of the specifications --sweep FILE.json generates, on the"
                    + " system simulate runs (time stepping with the model's contacts, joint limits, constraints,"
                    + " damping and declared actuators and sensors), on --threads worker threads. The results are the"
                    + " same bits whatever the thread count. Writes one line per rollout in index order: CSV (header"
                    + " index, the swept columns, failed, failure, steps, t, q.NAME..., v.NAME...) or JSON lines, by"
                    + " the output's extension (.csv, .jsonl) or --format; doubles are written so that they read"
                    + " back exactly. A failed rollout is a line with failed true and its failure; the others"
                    + " complete. Prints a summary line: rollouts, failed, steps, wall time and steps per second (on"
                    + " standard error when the results go to standard output, and then not with --quiet).",
            "--page writes a self-contained HTML page (no network) that plots the final value of a chosen state"
                    + " entry against each swept column, failed rollouts marked."},
        footer = {"", "Specifications file: an array of {\"q0\": [nq], \"v0\": [nv], \"keyframe\": NAME,"
                + " \"parameters\": {NAME: number}, \"seed\": integer, \"duration\": s, \"step\": s}; every key"
                + " optional: q0 the model's reference configuration (the neutral one, or an MJCF file's qpos0), v0"
                + " zero (or both the model's keyframe NAME), no"
                + " parameters, seed the specification's index, duration " + RolloutBatchReader.DEFAULT_DURATION
                + " s, step " + RolloutBatchReader.DEFAULT_STEP + " s.",
            "Parameter names: the model's declared parameters (either backend), friction (every contact's mu), kp and kd (every PD servo), kp.SERVO,"
                    + " kd.SERVO, target.SERVO.",
            "Sweep file: {\"q0\"/\"v0\" or \"keyframe\", \"parameters\" (held fixed), \"duration\", \"step\","
                    + " \"seed\": integer (default 0), \"mode\": \"grid\" (default) or \"random\", \"count\": n"
                    + " (random), \"ranges\": {KEY: RANGE, ...}}; KEY a parameter name or an initial-state entry"
                    + " \"q0[i]\" or \"v0[i]\" (0-based); RANGE {\"values\": [...]}, {\"from\": a, \"to\": b,"
                    + " \"count\": n} (grid: n points, both ends included) or {\"from\": a, \"to\": b} (random:"
                    + " uniform in [a, b)). grid: the Cartesian product, the last key varying fastest. random: count"
                    + " rollouts, rollout i's seed SplitMix64(seed, i) and its draws SplitMix64(~seed_i, j), so the"
                    + " same file gives the same rollouts on every machine.",
            "",
            "Exit codes: 0 success (also when some rollouts failed: see the failed column), 1 internal error, 2 bad"
                    + " usage, model, specifications or sweep file (path:[line,col] message), or an output that"
                    + " cannot be written."})
final class RolloutsCommand implements CliCommand {
    @Parameters(paramLabel = "MODEL.urdf", arity = "1", description = "The model file.")
    String model;

    @Option(names = "--specs", paramLabel = "FILE.json", order = 1,
            description = "The specifications: a JSON array of {q0, v0, keyframe, parameters, seed, duration, step}"
                    + " (format below). Required unless --sweep is given.")
    String specs;

    @Option(names = "--sweep", paramLabel = "FILE.json", order = 2,
            description = "A sweep that generates the specifications: a base state, ranges of parameters and"
                    + " initial-state entries, grid or random (format below).")
    String sweep;

    @Option(names = "--backend", paramLabel = "generic|generated", defaultValue = EvaluateCommand.GENERIC, order = 3,
            description = "generic (the default: the runtime's interpreter) or generated (the model's class,"
                    + " generated and compiled in memory once; each thread gets a copy).")
    String backend;

    @Option(names = "--threads", paramLabel = "N", order = 4,
            description = "Worker threads (default: every processor the JVM sees). The results do not depend on it.")
    Integer threads;

    @Option(names = "--fail-on-unconverged", order = 5,
            description = "A contact solve that does not converge fails its rollout (by default it is counted and"
                    + " the rollout goes on with the last iterate).")
    boolean failOnUnconverged;

    @Option(names = "--no-constraints", order = 5,
            description = "Leave the model's bilateral constraints (loops, <symdyn:contact> rows, couplings) out of"
                    + " every rollout, as simulate --no-constraints does.")
    boolean noConstraints;

    @Option(names = {"-o", "--output"}, paramLabel = "results.csv|results.jsonl", order = 6,
            description = "Write the results to this file instead of standard output (the summary line then goes to"
                    + " standard output).")
    String output;

    @Option(names = "--format", paramLabel = "csv|jsonl", order = 7,
            description = "The results' format (default: by the output's extension, .jsonl or .ndjson JSON lines,"
                    + " else CSV; CSV on standard output).")
    String format;

    @Option(names = "--page", paramLabel = "outcome.html", order = 8,
            description = "Also write an HTML page that plots the final value of a state entry (chosen in the page;"
                    + " at first a floating base's height, else the first coordinate) against each swept column.")
    String page;

    @Mixin
    MeshOptions meshes = new MeshOptions();

    @Mixin
    QuietOption quiet = new QuietOption();

    @Mixin
    CommonOptions options = new CommonOptions();

    @Override
    public void run(PrintStream out, PrintStream err) throws CliException {
        if ((specs == null) == (sweep == null)) {
            throw CliException.usage("rollouts", specs == null ? "rollouts needs --specs FILE.json or --sweep FILE.json"
                    : "give --specs or --sweep, not both");
        }
        String inputName = specs != null ? specs : sweep;
        if (inputName.isEmpty()) {
            throw CliException.usage("rollouts", "option " + (specs != null ? "--specs" : "--sweep")
                    + " needs a non-empty value");
        }
        if (threads != null && (threads < 1 || threads > Rollouts.Builder.MAX_THREADS)) {
            throw CliException.usage("rollouts", "--threads must be 1 to " + Rollouts.Builder.MAX_THREADS + ", not "
                    + threads);
        }
        if (!backend.equals(EvaluateCommand.GENERIC) && !backend.equals(EvaluateCommand.GENERATED)) {
            throw CliException.badInput("unknown backend '" + backend + "' (available: " + EvaluateCommand.GENERIC
                    + ", " + EvaluateCommand.GENERATED + ")");
        }
        String chosen = format != null ? format : output != null ? RolloutTable.formatOf(output) : RolloutTable.CSV;
        if (!chosen.equals(RolloutTable.CSV) && !chosen.equals(RolloutTable.JSONL)) {
            throw CliException.usage("rollouts", "--format must be " + RolloutTable.CSV + " or " + RolloutTable.JSONL
                    + ", not '" + format + "'");
        }
        Path outFile = writable(output);
        Path pageFile = writable(page);
        Progress progress = quiet.progress(err);
        progress.started(model + ": reading");
        long start = System.nanoTime();
        Model m = options.load(model, meshes, "rollouts");
        if (noConstraints) {
            m = m.withoutConstraints();
        }
        progress.ended(model + ": read", Progress.millisSince(start));
        for (Diagnostic warning : m.warnings()) {
            progress.warning(warning.toString());
        }
        String falling = FreeFall.warning(m);
        if (falling != null) {
            progress.warning(falling);
        }
        for (org.symdyn.model.ParameterModel p : m.parameters()) {
            if (RolloutParameters.SHADOWABLE.contains(p.name())) {
                // a helper's finding: a specification's "kp": 5 set a link's mass, silently
                progress.warning(Diagnostic.warning(p.location(), "parameter '" + p.name()
                        + "' has the name of a built-in rollout parameter ('" + p.name() + "': "
                        + (p.name().equals(RolloutParameters.FRICTION) ? "every contact's friction"
                                : "that gain of every servo") + "): in a specification or sweep, '" + p.name()
                        + "' sets the model's parameter; rename it to reach the built-in").toString());
            }
        }
        ModelFunctions functions = SimulateCommand.functions(m, backend, progress, model);
        SystemFactory systems = SystemFactory.of(m);
        List<String> names = parameterNames(m, functions, systems);
        Path file = SymDynCli.path(inputName);
        RolloutBatchReader.Batch batch = specs != null ? RolloutBatchReader.readSpecs(file, m, names)
                : RolloutBatchReader.readSweep(file, m, names);
        int n = batch.specs().size();
        warnLimitViolations(m, batch.specs(), progress);
        warnConstraintViolations(m, batch.specs(), progress);
        int workers = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        StepMeter meter = StepMeter.counting(progress, n, "running", "ran", "rollouts");
        Rollouts rollouts = Rollouts.builder(functions, systems)
                .threads(workers)
                .failOnUnconverged(failOnUnconverged)
                .listener((result, done, total) -> meter.update(done))
                .build();
        start = System.nanoTime();
        List<RolloutResult<FinalState>> results = rollouts.run(batch.specs(), Outcomes.finalState());
        long wallNanos = System.nanoTime() - start;
        meter.finish(n);
        if (outFile == null) {
            try {
                RolloutTable.write(chosen, m, batch, results, out);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a PrintStream does not throw
            }
        } else {
            try (Writer w = Files.newBufferedWriter(outFile, StandardCharsets.UTF_8)) {
                RolloutTable.write(chosen, m, batch, results, w);
            } catch (IOException | RuntimeException e) {
                throw GenerateCommand.cannotWrite(outFile, e);
            }
        }
        String pageLine = null;
        if (pageFile != null) {
            String html = OutcomePage.html(m, batch, results);
            GenerateCommand.write(pageFile, html);
            pageLine = pageFile + ": " + html.getBytes(StandardCharsets.UTF_8).length + " bytes, the outcome of "
                    + n + " rollouts against " + (batch.columns().isEmpty() ? "their index"
                            : String.join(", ", batch.columns()));
        }
        String summary = summary(results, wallNanos, Math.min(workers, n));
        if (outFile != null) {
            out.println(summary);
            if (pageLine != null) {
                out.println(pageLine);
            }
        } else {
            // standard output holds the results: the summary is information, like progress
            progress.info(summary);
            if (pageLine != null) {
                progress.info(pageLine);
            }
        }
    }

    /** The file an output option names (null when not given), refused when empty or a directory. */
    private static Path writable(String name) throws CliException {
        if (name == null) {
            return null;
        }
        if (name.isEmpty()) {
            throw CliException.usage("rollouts", "an output file name must not be empty");
        }
        return GenerateCommand.outputFile(name);
    }

    /**
     * The joint-limit warnings of {@code simulate} ({@link LimitViolations}) for the first rollout that starts with a
     * joint beyond its limit, and how many more do, so that a sweep of thousands is not thousands of lines.
     */
    private static void warnLimitViolations(Model m, List<RolloutSpec> specs, Progress progress) {
        ContactSettings settings = ContactSettings.defaults();
        warnFirstAndCount(specs, s -> LimitViolations.of(m, s.q0(), s.timeStep(), settings),
                "with a joint beyond its limit", progress);
    }

    /**
     * The warnings of {@code simulate} for an initial state the model's constraints do not hold
     * ({@link ConstraintViolations}: a loop open at q0, or v0 moving it apart, as a sweep over v0 entries does), the
     * same way.
     */
    private static void warnConstraintViolations(Model m, List<RolloutSpec> specs, Progress progress) {
        ConstraintViolations check = ConstraintViolations.of(m);
        if (check != null) {
            warnFirstAndCount(specs, s -> check.of(s.q0(), s.v0(), false), "off the model's constraints", progress);
        }
    }

    /** The warnings of the first rollout that has some, each prefixed with its index, then how many more have some. */
    private static void warnFirstAndCount(List<RolloutSpec> specs,
            java.util.function.Function<RolloutSpec, List<Diagnostic>> warningsOf, String what, Progress progress) {
        int violating = 0;
        for (int k = 0; k < specs.size(); k++) {
            List<Diagnostic> warnings = warningsOf.apply(specs.get(k));
            if (warnings.isEmpty()) {
                continue;
            }
            if (violating++ == 0) {
                for (Diagnostic w : warnings) {
                    progress.warning(Diagnostic.warning(w.location(), "rollout " + k + ": " + w.message())
                            .toString());
                }
            }
        }
        if (violating > 1) {
            progress.warning("warning: " + (violating - 1) + " more rollout" + (violating == 2 ? " starts" : "s start")
                    + " " + what);
        }
    }

    /**
     * The parameter names the model's system takes, from one system built as a rollout's would be (at the reference
     * configuration): the names do not depend on the state.
     */
    private static List<String> parameterNames(Model m, ModelFunctions functions, SystemFactory systems)
            throws CliException {
        TimeSteppingSystem system;
        try {
            system = systems.build(functions.copy(), RolloutSpec.of(m.referenceConfiguration(), new double[m.nv()], 0,
                    RolloutBatchReader.DEFAULT_STEP));
        } catch (IllegalArgumentException e) {
            throw CliException.badInput(m.sourcePath() + ":[0,0] cannot simulate this model: " + e.getMessage());
        }
        return RolloutParameters.names(functions, system);
    }

    /** {@code rollouts: 12, failed: 1, steps: 11000, wall time 1.2 s, 9,166 steps per second (2 threads)}. */
    static String summary(List<RolloutResult<FinalState>> results, long wallNanos, int threads) {
        long steps = 0;
        int failed = 0;
        for (RolloutResult<FinalState> r : results) {
            steps += r.steps();
            failed += r.failed() ? 1 : 0;
        }
        double seconds = wallNanos / 1e9;
        return String.format(Locale.ROOT, "rollouts: %d, failed: %d, steps: %d, wall time %s, %.0f steps per second"
                + " (%d thread%s)", results.size(), failed, steps, GenerationProgress.duration(wallNanos / 1_000_000),
                seconds > 0 ? steps / seconds : 0.0, threads, threads == 1 ? "" : "s");
    }
}
