package org.symdyn.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.cli.StatesReader.State;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contact.ContactSettings;
import org.symdyn.contact.ShapePair;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.InitialState;
import org.symdyn.model.JointDamping;
import org.symdyn.model.Model;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code symdyn simulate}: a simulation with contact from an initial state (time stepping, or the continuous-time
 * hybrid scheme with {@code --system continuous}), the trajectory as JSON.
 *
 * <p>Initial state file: {@code {"q": [...], "v": [...], "tau": [...]}}, every key optional: q (nq numbers) is the
 * model's reference configuration when missing ({@link Model#referenceConfiguration()}: the neutral one, zero joint
 * positions and identity quaternions (x, y, z, w) = (0, 0, 0, 1), or an MJCF file's qpos0, its bodies where the
 * file places them), v (nv) zero, tau (nv) zero; tau is held constant over the whole run. With {@code --keyframe NAME} q and v
 * are the model's initial state NAME ({@link Model#initialState}, an MJCF keyframe) and the file, optional, gives
 * tau only.
 *
 * <p>Stepping: {@link SimulationRun}, by {@code --system}: {@code time-stepping} (the default;
 * {@code TimeStepper}: velocity-level, exact Coulomb cones, the model's grounds and contact candidates, joint
 * limits and bilateral constraints; a joint that starts beyond its limit is warned about, with the recovery
 * velocity the stepper will leave it, {@link LimitViolations}) or {@code continuous} ({@code ContinuousTimeSystem}:
 * the same grounds, candidates, collision shapes, constraints and devices, acceleration-level contact between events
 * located to 1e-12 s, impacts with
 * exact Newton restitution; {@code --integrator rk4} (default) or {@code dopri5}; joint limits are not enforced,
 * with a warning). The joints' viscous damping (URDF {@code <dynamics damping>}) is applied as a passive force
 * −d v unless {@code --no-damping}: implicitly in time stepping, explicitly in the continuous system. Both run
 * through one pipeline, so the output has one format. The run takes n = round(duration /
 * step) steps; a duration that is not a whole number of steps (within 10⁻⁶ of a step) is refused.
 *
 * <p>Output ({@code --output FILE}, else standard output):
 * <pre>
 * {"model": NAME, "step": h, "every": N, ["system": "continuous", "integrator": "rk4"|"dopri5",]
 *  "q_names": [...], "v_names": [...],
 *  "t": [...]            the recorded times, s: 0 (the initial state), then every N-th step, and always the last
 *  "q": [[...], ...]     the configuration at each recorded time (nq)
 *  "v": [[...], ...]     the velocity at each recorded time (nv)
 *  "contacts": [[...], ...]  per recorded time the contacts of the step that ended there (none at t = 0):
 *        {"name": candidate, "ground": ground, "position": [3] (the contact point at the step's start), "gap": m,
 *         "normal_impulse": N·s along the ground normal, "tangent_impulse": [3] N·s (world),
 *         "slip_velocity": [3] m/s (world, tangential part of J w: w the step's v⁺ before the
 *         floating bases' frames move to q⁺, TimeStepper.contactVelocities)}; a contact between collision shapes has
 *        "name": shape B, "other": shape A (or the ground) and "normal": [3] (unit, world, from A towards B)
 *        instead of "ground"
 *  "sensors": {"name": [[...], ...]}
 *                        each declared sensor's readings, one array per recorded time (an IMU: ωx, ωy, ωz, fx, fy,
 *                        fz in its frame; an encoder: q, v); at t = 0 read with v̇ = 0 (time stepping) or the initial
 *                        state's v̇ (continuous)
 *  "sensor_channels": {"name": ["name.wx", ...]}   each sensor's channel names, in its readings' order
 *  "solver": {"steps", ["impacts",] "converged" (every solve converged), "unconverged", "max_iterations",
 *             "worst_violation" (m/s)[, "cone_fallbacks", "cone_fallbacks_unconverged"]}}
 * </pre>
 * "system" and "integrator" are written for the continuous system only, so that time stepping's output stays as it
 * was, key for key. With the continuous system a contact's impulse is its acceleration-level force after the step
 * times h plus the impulses of the step's impacts; the contacts listed are the pairs the system considered, closed
 * after the step (force or not) or struck during it, then the contacts between collision shapes it holds after the
 * step that are closed or were struck during it (an impact's impulse matched by the two shapes and the point's slot
 * in their manifold), with position, gap and slip velocity after the step; and
 * "solver" counts the impact solves: "impacts" the impact instants, "converged", "unconverged", "max_iterations"
 * and "worst_violation" of their impulse solves, "steps" the system's steps. The acceleration-level solves are
 * Lemke's pivoting solves, which succeed or stop the run, except where Lemke failed on a problem without sliding
 * contacts and the cone solver solved it instead: "cone_fallbacks" counts those, "cone_fallbacks_unconverged" the
 * ones that stopped above the solver's tolerance (a warning as well).
 * A solve that did not converge is not an error: it is counted in "solver" and one warning line goes to standard
 * error. A state that is not finite after a step or has a speed above {@link SimulationRun#RUNAWAY_SPEED} (diverged
 * while finite), dynamics that cannot be evaluated, or (continuous) a contact
 * problem without a unique solution (Painlevé) or events accumulating, stops the run (exit code 2, the step and
 * time named); with {@code -o}, the states recorded before it are written to the file as a trajectory of their own.
 */
@Command(name = "simulate", sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 100,
        header = "Simulate with contact from an initial state and print the trajectory as JSON.",
        description = {
            "Steps the model for --duration seconds in steps of --step (unilateral contact and Coulomb friction"
                    + " against the model's grounds, the model's constraints and declared actuators) and prints"
                    + " {\"t\", \"q\", \"v\", \"contacts\", \"sensors\", \"solver\"}: t = 0 (the initial"
                    + " state), then every N-th step and always the last; per recorded time the contacts of the step"
                    + " that ended there (name, ground, position, gap, normal_impulse, tangent_impulse, slip_velocity;"
                    + " impulses in N*s, vectors in world coordinates); solver: steps, converged, unconverged,"
                    + " max_iterations, worst_violation (m/s).",
            "--system time-stepping (the default) takes velocity-level steps (first order in --step; joint limits"
                    + " enforced). --system continuous integrates the dynamics with --integrator rk4 or dopri5, the"
                    + " contact forces at acceleration level between events (gaps closing, slips stopping) located"
                    + " to 1e-12 s, impacts with exact Newton restitution; it does not enforce joint limits (a"
                    + " warning names them) and adds \"system\", \"integrator\" and solver.impacts to the output."
                    + " Its impulses are force * step after the step plus the step's impact impulses; its contacts"
                    + " are the pairs and shape contacts closed after the step or struck during it (position, gap,"
                    + " slip_velocity after the step); its solver numbers are those of the impact solves.",
            "A contact solve that did not converge is reported in solver and warned about on standard error (exit"
                    + " code 0)."},
        footer = {"", "Initial state file: {\"q\": [...], \"v\": [...], \"tau\": [...]}; q (nq numbers) is the"
                + " model's reference configuration when missing (zero joints and identity quaternions (x, y, z, w);"
                + " an MJCF file's qpos0, its bodies where the file places them), v and tau (nv"
                + " numbers each) zero when missing; tau is held constant. With --keyframe NAME, q and v are the"
                + " model's keyframe NAME.",
            "The number of steps is round(duration / step); a duration that is not a whole number of steps is"
                    + " refused.",
            "",
            "Exit codes: 0 success, 1 internal error, 2 bad usage, model or state file, or a simulation that"
                    + " diverged or (continuous) met a contact problem without a unique solution (Painleve) (the step"
                    + " and time named)."})
final class SimulateCommand implements CliCommand {
    /** The most steps one run may take. */
    static final long MAX_STEPS = 100_000_000L;
    /** How far (in steps) a duration may be from a whole number of steps. */
    static final double WHOLE_STEPS = 1e-6;

    @Parameters(paramLabel = "MODEL.urdf", arity = "1", description = "The model file.")
    String model;

    @Option(names = "--initial", paramLabel = "STATE.json", order = 1,
            description = "The initial state {\"q\", \"v\", \"tau\"} (format below). Required unless --keyframe"
                    + " is given.")
    String initial;

    @Option(names = "--keyframe", paramLabel = "NAME", order = 1,
            description = "Start from the model's initial state NAME (an MJCF <keyframe> key; symdyn inspect lists"
                    + " them): its q and v; tau from --initial, which may then hold only \"tau\", else zero.")
    String keyframe;

    @Option(names = "--duration", paramLabel = "SECONDS", required = true, order = 2,
            description = "How long to simulate (a positive whole number of steps).")
    double duration;

    @Option(names = "--step", paramLabel = "SECONDS", required = true, order = 3,
            description = "The time step h (positive).")
    double step;

    @Option(names = "--every", paramLabel = "N", defaultValue = "1", order = 4,
            description = "Record every N-th step (default 1: every step); t = 0 and the last step are always"
                    + " recorded. symdyn view reads trajectories of up to 256 MiB (about 2 KB a state for a"
                    + " 12-dof robot with its contacts: a long run at a small step needs N > 1 there).")
    int every;

    @Option(names = {"-o", "--output"}, paramLabel = "TRAJ.json", order = 5,
            description = "Write the trajectory to this file instead of standard output.")
    String output;

    @Option(names = "--backend", paramLabel = "generic|generated", defaultValue = EvaluateCommand.GENERIC, order = 6,
            description = "generic (the default: the runtime's interpreter) or generated (the model's class,"
                    + " generated and compiled in memory; the same trajectory to rounding).")
    String backend;

    @Option(names = "--system", paramLabel = "time-stepping|continuous", defaultValue = SimulationRun.TIME_STEPPING,
            order = 7,
            description = "time-stepping (the default: velocity-level steps, first order in the step, joint limits"
                    + " enforced) or continuous (events located to 1e-12 s, Newton's restitution exact, no joint"
                    + " limits; a Painleve case stops the run).")
    String system;

    @Option(names = "--integrator", paramLabel = "rk4|dopri5", order = 8,
            description = "With --system continuous: rk4 (the default: classical Runge-Kutta, fixed steps of at most"
                    + " --step between events) or dopri5 (adaptive Dormand-Prince 5(4), tolerances 1e-8).")
    String integrator;

    @Option(names = "--keep-initial-overlaps", order = 10,
            description = "Keep contact between collision shapes of one mechanism that overlap in the initial state."
                    + " By default such pairs (convex hulls of neighbouring links, typically; shapes joined by no"
                    + " floating joint) are left out of contact with each other, with a warning naming each and the"
                    + " <symdyn:no_contact> line that makes it explicit. Free bodies keep their contact however deep"
                    + " they start.")
    boolean keepInitialOverlaps;

    @Option(names = "--no-damping", order = 9,
            description = "Do not apply the joints' viscous damping (URDF <dynamics damping>), which the run applies"
                    + " by default as a passive force -d v per joint.")
    boolean noDamping;

    @Option(names = "--no-constraints", order = 9,
            description = "Leave the model's bilateral constraints (loops, <symdyn:contact> rows, couplings) out of"
                    + " the run: for rows meant for another use, such as the sample quadruped's foot rows (its"
                    + " standing demo's), which hold the feet where the floor also pushes them.")
    boolean noConstraints;

    @Mixin
    ContactOptions contact = new ContactOptions();

    @Mixin
    MeshOptions meshes = new MeshOptions();

    @Mixin
    QuietOption quiet = new QuietOption();

    @Mixin
    CommonOptions options = new CommonOptions();

    @Override
    public void run(PrintStream out, PrintStream err) throws CliException {
        if (initial == null && keyframe == null) {
            throw CliException.usage("simulate", "simulate needs --initial STATE.json or --keyframe NAME");
        }
        if (initial != null && initial.isEmpty()) {
            throw CliException.usage("simulate", "option --initial needs a non-empty value");
        }
        if (!(step > 0) || Double.isInfinite(step)) {
            throw CliException.usage("simulate", "--step must be a positive number of seconds, not " + format(step));
        }
        if (!(duration > 0) || Double.isInfinite(duration)) {
            throw CliException.usage("simulate", "--duration must be a positive number of seconds, not "
                    + format(duration));
        }
        ContactSettings settings = contact.settings("simulate");
        int maxShapeContacts = contact.maxShapeContacts("simulate");
        if (every < 1) {
            throw CliException.usage("simulate", "--every must be a positive number of steps, not " + every);
        }
        long steps = steps(duration, step);
        if (!backend.equals(EvaluateCommand.GENERIC) && !backend.equals(EvaluateCommand.GENERATED)) {
            throw CliException.badInput("unknown backend '" + backend + "' (available: " + EvaluateCommand.GENERIC
                    + ", " + EvaluateCommand.GENERATED + ")");
        }
        if (!system.equals(SimulationRun.TIME_STEPPING) && !system.equals(SimulationRun.CONTINUOUS)) {
            throw CliException.badInput("unknown system '" + system + "' (available: " + SimulationRun.TIME_STEPPING
                    + ", " + SimulationRun.CONTINUOUS + ")");
        }
        if (integrator != null && system.equals(SimulationRun.TIME_STEPPING)) {
            throw CliException.usage("simulate", "--integrator " + integrator + " needs --system "
                    + SimulationRun.CONTINUOUS + " (time stepping has no integrator)");
        }
        if (contact.penetrationSlop != null && system.equals(SimulationRun.CONTINUOUS)) {
            // the continuous system keeps contacts closed exactly: it has no penetration to recover from
            throw CliException.usage("simulate", "--penetration-slop needs --system " + SimulationRun.TIME_STEPPING
                    + " (the continuous system recovers no penetration)");
        }
        if (integrator != null && !integrator.equals(SimulationRun.RK4) && !integrator.equals(SimulationRun.DOPRI5)) {
            throw CliException.badInput("unknown integrator '" + integrator + "' (available: " + SimulationRun.RK4
                    + ", " + SimulationRun.DOPRI5 + ")");
        }
        Path outFile = output == null ? null : GenerateCommand.outputFile(output);
        Progress progress = quiet.progress(err);
        progress.started(model + ": reading");
        long start = System.nanoTime();
        Model m = options.load(model, meshes, "simulate");
        if (noConstraints) {
            m = m.withoutConstraints();
        }
        progress.ended(model + ": read", Progress.millisSince(start));
        InitialState key = null;
        if (keyframe != null) {
            try {
                key = m.initialState(keyframe);
            } catch (IllegalArgumentException e) {
                // the option is wrong, not a place in the file
                throw CliException.usage("simulate", "--keyframe " + keyframe + ": " + e.getMessage());
            }
        }
        State state = StatesReader.readInitial(initial == null ? null : SymDynCli.path(initial), m, key);
        for (Diagnostic warning : m.warnings()) {
            progress.warning(warning.toString());
        }
        String falling = FreeFall.warning(m);
        if (falling != null) {
            progress.warning(falling);
        }
        ModelFunctions functions = functions(m, backend, progress, model);
        SimulationRun run;
        try {
            run = new SimulationRun(m, functions, state.q(), state.v(), step, state.tau(), system, integrator,
                    settings, noDamping ? JointDamping.NONE : JointDamping.of(m),
                    keepInitialOverlaps, maxShapeContacts);
        } catch (IllegalArgumentException e) {
            throw CliException.badInput(m.sourcePath() + ":[0,0] cannot simulate this model: " + e.getMessage());
        } catch (SimulationRun.StepFailure e) {
            throw diverged(state, 0, step, e.getMessage());
        } catch (ArithmeticException e) {
            throw diverged(state, 0, step, "the dynamics cannot be evaluated: " + e.getMessage());
        }
        for (ShapePair pair : run.excludedOverlaps()) {
            progress.warning("warning: collision shapes '" + pair.first().name() + "' and '" + pair.second().name()
                    + "' overlap in the initial state: left out of contact with each other (add <symdyn:no_contact"
                    + " link1=\"" + pair.first().link() + "\" link2=\"" + pair.second().link() + "\"/> to say so"
                    + " in the model, or --keep-initial-overlaps)");
        }
        List<String> unlimited = run.unenforcedJointLimits();
        if (!unlimited.isEmpty()) {
            progress.warning("warning: --system " + SimulationRun.CONTINUOUS + " does not enforce joint limits: "
                    + String.join(", ", unlimited) + " may pass theirs (--system " + SimulationRun.TIME_STEPPING
                    + " enforces them)");
        }
        if (!SimulationRun.CONTINUOUS.equals(system)) {
            for (Diagnostic warning : LimitViolations.of(m, state.q(), step, settings)) {
                progress.warning(warning.toString());
            }
        }
        boolean continuous = SimulationRun.CONTINUOUS.equals(system);
        ConstraintViolations violations = ConstraintViolations.of(m);
        if (violations != null) {
            for (Diagnostic warning : violations.of(state.q(), state.v(), continuous)) {
                progress.warning(warning.toString());
            }
        }
        if (continuous && !SimulationRun.DOPRI5.equals(integrator)) {
            Diagnostic unstable = ExplicitDamping.rk4Warning(m, state.q(), step,
                    noDamping ? JointDamping.NONE : JointDamping.of(m));
            if (unstable != null) {
                progress.warning(unstable.toString());
            }
        }
        JsonValue trajectory;
        try {
            trajectory = simulate(run, steps, every, state, err, new StepMeter(progress, steps, step));
        } catch (Stopped e) {
            if (outFile == null) {
                throw e.failure;
            }
            // What was simulated up to the failure is kept, where a file was asked for (standard output stays
            // clean for the error).
            try {
                GenerateCommand.write(outFile, SymDynCli.WRITER.write(e.partial) + "\n");
            } catch (CliException unwritten) {
                // the reason the run stopped comes first; then why its trajectory could not be kept
                List<String> lines = new ArrayList<>(e.failure.lines());
                lines.addAll(unwritten.lines());
                throw CliException.badInput(lines);
            }
            throw CliException.badInput(e.failure.getMessage() + " (the trajectory up to t = "
                    + JsonWriter.formatNumber(e.lastTime) + " s is written to " + outFile + ")");
        }
        String text = SymDynCli.WRITER.write(trajectory);
        if (outFile == null) {
            out.println(text);
        } else {
            GenerateCommand.write(outFile, text + "\n");
        }
    }

    /**
     * The model's functions by the named backend (checked by the caller); the generated backend's stages shown by
     * {@code progress}, named by {@code name}, the model file as given.
     */
    static ModelFunctions functions(Model m, String backend, Progress progress, String name) throws CliException {
        if (backend.equals(EvaluateCommand.GENERATED)) {
            Object generated = GenerateCommand.compileInstance(m, false, progress, name);
            if (!(generated instanceof ModelFunctions f)) {
                throw new IllegalStateException("the generated class " + generated.getClass().getName()
                        + " does not implement " + ModelFunctions.class.getName());
            }
            return f;
        }
        return new GenericModel(m);
    }

    /** round(duration / step), refused when not a whole number of steps or beyond {@link #MAX_STEPS}. */
    static long steps(double duration, double step) throws CliException {
        double ratio = duration / step;
        if (!(ratio <= MAX_STEPS + 0.5)) {
            // the ratio overflows to infinity for a step of 1e-310 s: said in words, not as a JSON number
            throw CliException.usage("simulate", "--duration " + JsonWriter.formatNumber(duration) + " / --step "
                    + JsonWriter.formatNumber(step) + " is " + (Double.isFinite(ratio) ? JsonWriter.formatNumber(ratio)
                    : "too many") + " steps, more than " + MAX_STEPS);
        }
        long n = Math.round(ratio);
        if (n < 1 || Math.abs(ratio - n) > WHOLE_STEPS) {
            throw CliException.usage("simulate", "--duration " + JsonWriter.formatNumber(duration)
                    + " is not a whole number of steps of " + JsonWriter.formatNumber(step) + " s ("
                    + JsonWriter.formatNumber(ratio) + " steps)");
        }
        return n;
    }

    /**
     * Runs {@code steps} steps, recording t = 0, every {@code every}-th step and the last.
     *
     * @param state the initial state (for the location of a divergence message)
     * @param err   where the warning of unconverged solves goes
     * @param meter shows how far the run has come
     * @throws Stopped the state became non-finite or the dynamics could not be evaluated (its failure has exit code
     *                 2; it carries the trajectory recorded before)
     */
    static JsonValue simulate(SimulationRun run, long steps, int every, State state, PrintStream err,
            StepMeter meter) throws Stopped {
        Model m = run.model();
        List<JsonValue> t = new ArrayList<>();
        List<JsonValue> q = new ArrayList<>();
        List<JsonValue> v = new ArrayList<>();
        List<JsonValue> contacts = new ArrayList<>();
        Map<String, List<JsonValue>> sensors = new LinkedHashMap<>();
        record(run, t, q, v, contacts, sensors);
        long firstUnconverged = -1;
        for (long i = 1; i <= steps; i++) {
            boolean converged;
            try {
                converged = run.step();
            } catch (ArithmeticException e) {
                meter.finish(i - 1);
                throw stopped(diverged(state, i, run.stepSize(), "the dynamics cannot be evaluated: "
                        + e.getMessage()), run, every, t, q, v, contacts, sensors);
            } catch (SimulationRun.StepFailure e) {
                meter.finish(i - 1);
                throw stopped(diverged(state, i, run.stepSize(), e.getMessage()), run, every, t, q, v, contacts,
                        sensors);
            }
            if (!converged && firstUnconverged < 0) {
                firstUnconverged = i;
            }
            String bad = run.nonFinite(6);
            if (bad != null) {
                meter.finish(i);
                throw stopped(diverged(state, i, run.stepSize(), "the state is not finite (" + bad + "); the"
                        + " simulation diverged: try a smaller --step"), run, every, t, q, v, contacts, sensors);
            }
            String fast = run.runaway();
            if (fast != null) {
                meter.finish(i);
                throw stopped(diverged(state, i, run.stepSize(), "a speed passed " + SimulationRun.RUNAWAY_SPEED
                        + " (" + fast + "); the simulation diverged: try a smaller --step"), run, every, t, q, v,
                        contacts, sensors);
            }
            if (i % every == 0 || i == steps) {
                record(run, t, q, v, contacts, sensors);
            }
            meter.update(i);
        }
        meter.finish(steps);
        SimulationRun.SolverSummary s = run.solver();
        if (run.droppedContacts() > 0) {
            err.println("warning: " + run.droppedContacts() + " contacts between collision shapes were dropped over"
                    + " the run: a step found more than the bound of " + run.maxShapeContacts() + " shape contacts per"
                    + " step; the simulation missed them (raise the bound with --max-contacts)");
        }
        if (s.unconverged() > 0) {
            err.println("warning: " + s.unconverged() + " of " + s.solves() + " " + s.kind() + " solves did not"
                    + " converge (first at step " + firstUnconverged + ", t = " + JsonWriter.formatNumber(
                            firstUnconverged * run.stepSize()) + " s; their steps used the last iterate); worst"
                    + " contact-law violation " + JsonWriter.formatNumber(s.worstViolation()) + " m/s"
                    + (s.kind().equals("contact") ? "; --solver, --tolerance, --max-iterations and --penetration-slop"
                            + " set the solve (a pile of bodies: --solver pgs --tolerance 1e-6 --penetration-slop 1e-7)"
                            : "")
                    + (m.constraints().isEmpty() ? "" : "; the model's " + m.constraints().size() + " constraints"
                            + " hold their rows as the contacts push (rows meant for another use, such as a standing"
                            + " demo's foot rows, fight the floor: --no-constraints leaves them out)"));
        }
        if (s.coneUnconverged() > 0) {
            err.println("warning: " + s.coneUnconverged() + " of " + s.coneFallbacks() + " acceleration-level"
                    + " solves by the cone solver (where Lemke failed without sliding contacts) did not converge;"
                    + " their segments used the last iterate");
        }
        return document(run, every, t, q, v, contacts, sensors);
    }

    /** A run stopped by a failure: the failure, and the document of what was recorded before it. */
    static final class Stopped extends Exception {
        private static final long serialVersionUID = 1L;
        final transient CliException failure;
        final transient JsonValue partial;
        final double lastTime;

        Stopped(CliException failure, JsonValue partial, double lastTime) {
            super(failure.getMessage(), failure, false, false);
            this.failure = failure;
            this.partial = partial;
            this.lastTime = lastTime;
        }
    }

    /**
     * The failure with the document of the states recorded so far (every N-th, as the run records them: the last good
     * state only where it fell on the record's grid).
     */
    private static Stopped stopped(CliException failure, SimulationRun run, int every, List<JsonValue> t,
            List<JsonValue> q, List<JsonValue> v, List<JsonValue> contacts, Map<String, List<JsonValue>> sensors) {
        JsonValue partial = document(run, every, t, q, v, contacts, sensors);
        return new Stopped(failure, partial, ((JsonValue.NumberValue) t.get(t.size() - 1)).value());
    }

    private static JsonValue document(SimulationRun run, int every, List<JsonValue> t, List<JsonValue> q,
            List<JsonValue> v, List<JsonValue> contacts, Map<String, List<JsonValue>> sensors) {
        Model m = run.model();
        SimulationRun.SolverSummary s = run.solver();
        JsonValue.ObjectBuilder sensorJson = JsonValue.objectBuilder();
        sensors.forEach((name, values) -> sensorJson.put(name, JsonValue.array(values)));
        JsonValue.ObjectBuilder channelJson = JsonValue.objectBuilder();
        run.sensorChannels().forEach((name, channels) -> channelJson.put(name, JsonValue.strings(channels)));
        JsonValue.ObjectBuilder json = JsonValue.objectBuilder()
                .put("model", m.name())
                .put("step", run.stepSize())
                .put("every", every);
        boolean continuous = SimulationRun.CONTINUOUS.equals(run.systemName());
        if (continuous) {
            // only here: time stepping's output has a fixed set of keys that readers compare exactly
            json.put("system", run.systemName()).put("integrator", run.integratorName());
        }
        JsonValue.ObjectBuilder solver = JsonValue.objectBuilder().put("steps", s.steps());
        if (continuous) {
            solver.put("impacts", s.solves());
        }
        solver.put("converged", JsonValue.of(s.unconverged() == 0))
                .put("unconverged", s.unconverged())
                .put("max_iterations", s.maxIterations())
                .put("worst_violation", s.worstViolation());
        if (continuous) {
            solver.put("cone_fallbacks", s.coneFallbacks());
            solver.put("cone_fallbacks_unconverged", s.coneUnconverged());
        }
        return json
                .put("q_names", JsonValue.strings(m.qNames()))
                .put("v_names", JsonValue.strings(m.vNames()))
                .put("t", JsonValue.array(t))
                .put("q", JsonValue.array(q))
                .put("v", JsonValue.array(v))
                .put("contacts", JsonValue.array(contacts))
                .put("sensors", sensorJson.build())
                .put("sensor_channels", channelJson.build())
                .put("solver", solver.build())
                .build();
    }

    private static void record(SimulationRun run, List<JsonValue> t, List<JsonValue> q, List<JsonValue> v,
            List<JsonValue> contacts, Map<String, List<JsonValue>> sensors) {
        t.add(JsonValue.of(run.time()));
        q.add(JsonValue.array(run.q().clone()));
        v.add(JsonValue.array(run.v().clone()));
        List<JsonValue> list = new ArrayList<>(run.contacts().size());
        for (SimulationRun.Contact c : run.contacts()) {
            var o = JsonValue.objectBuilder().put("name", c.name());
            if (c.shapes()) {
                o.put("other", c.ground()).put("position", JsonValue.array(c.position()))
                        .put("normal", JsonValue.array(c.normal()));
            } else {
                o.put("ground", c.ground()).put("position", JsonValue.array(c.position()));
            }
            list.add(o.put("gap", c.gap())
                    .put("normal_impulse", c.normalImpulse())
                    .put("tangent_impulse", JsonValue.array(c.tangentImpulse()))
                    .put("slip_velocity", JsonValue.array(c.slipVelocity()))
                    .build());
        }
        contacts.add(JsonValue.array(list));
        for (Map.Entry<String, double[]> e : run.sensors().entrySet()) {
            sensors.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(JsonValue.array(e.getValue().clone()));
        }
    }

    /** A number as JSON writes it; NaN and infinities as Java does. */
    private static String format(double x) {
        return Double.isFinite(x) ? JsonWriter.formatNumber(x) : Double.toString(x);
    }

    /** A run that cannot go on, located at the state file: the step (0: the initial state) and its end time. */
    private static CliException diverged(State state, long step, double h, String why) {
        return CliException.badInput(Diagnostic.error(state.location(), "step " + step + " (t = "
                + JsonWriter.formatNumber(step * h) + " s): " + why).toString());
    }
}
