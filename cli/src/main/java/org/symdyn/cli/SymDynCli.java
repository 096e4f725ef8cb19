package org.symdyn.cli;

import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.cli.json.JsonWriter;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;

/**
 * The {@code symdyn} command line ({@code java -jar symdyn.jar ...}); see {@link #USAGE}.
 *
 * <p>Results go to standard output as pretty-printed JSON (two-space indentation, numeric arrays on one line,
 * doubles in round-trip form, non-ASCII characters escaped). Problems go to standard error: every problem of a
 * model or states file as a {@code path:[line,col] message} line, never a stack trace.
 *
 * <p>{@code evaluate} on a model with constraints adds the constraint terms, the constrained forward dynamics and
 * impulses by the three methods and, on request, assembly, per state (see {@link EvaluateCommand}); a solve refused
 * for redundant or inconsistent rows leaves nulls and a warning, not an error.
 *
 * <p>{@code generate} writes Java sources and prints one summary line per model, or writes a JSON report with
 * {@code --report} and prints nothing; see {@link GenerateCommand}. {@code evaluate --backend generated} generates
 * and compiles the model's class in memory and evaluates through it, with the same output as the generic backend.
 *
 * <p>Exit codes: 0 success (also for {@code --help}); 2 bad usage, a bad model or states file, a model the generator
 * cannot handle, an unknown backend or an output that cannot be written (also when no arguments are given: the usage
 * then goes to standard output); 1 an internal error, printed as {@code internal error: message} (a bug: please
 * report it), among them a generated class that does not compile or has a method over HotSpot's size limit.
 */
public final class SymDynCli {
    /** The usage text printed by {@code --help}. */
    public static final String USAGE = String.join("\n",
            "usage: symdyn inspect MODEL.urdf [--floating] [--strict]",
            "       symdyn evaluate MODEL.urdf --states STATES.json [--backend generic|generated] [--floating]",
            "                [--strict]",
            "       symdyn generate MODEL.urdf... -d DIR -p PACKAGE [--class NAME] [--report REPORT.json]",
            "                [--math-trig] [--floating] [--strict]",
            "",
            "Commands:",
            "  inspect    print the model's structure as JSON: name, nq, nv, q_names, v_names,",
            "             bodies (name, parent, joint, joint_type), frames (name, body),",
            "             constraints (name, type, rows) and warnings",
            "  evaluate   evaluate the dynamics at each state of STATES.json and print JSON",
            "             {\"results\": [{\"H\", \"C\", \"g\", \"qdd\", \"tau_id\", \"body_poses\"}, ...]}, one per state:",
            "             H mass matrix, C bias forces (Coriolis, centrifugal and gravity), g gravity forces,",
            "             qdd forward dynamics of tau (constraints ignored), tau_id inverse dynamics of a,",
            "             body_poses position and rotation (3 rows, world <- link) of every link,",
            "             body_jacobians (6 rows of nv, [w; v_origin] in link coordinates) of every moving",
            "             link, and points: per requested point, in world coordinates, position, velocity",
            "             (J v), acceleration (J a + bias, gravity excluded), bias (Jdot v) and jacobian",
            "             (3 rows of nv).",
            "             A model with constraints adds, per state: G (constraint Jacobian, rows x nv),",
            "             gamma (G qdd = gamma; with -2a phidot - b^2 phi on the rows of constraints that",
            "             have a baumgarte_time_constant T, a = b = 1/T), phi and phidot (position and",
            "             velocity errors); constrained forward dynamics of tau by each method:",
            "             qdd_direct, lambda_direct, qdd_range_space, lambda_range_space, qdd_null_space,",
            "             lambda_null_space, with [H G'; G 0][qdd; -lambda] = [tau - C; gamma]; impulses",
            "             taking v as v-minus (target velocities 0): v_plus_direct, impulse_direct and",
            "             the same for _range_space and _null_space, with [H G'; G 0][v+; L] = [H v; 0];",
            "             when the state has q_init, assembly_q {q, success, error} (from q_init, tolerance",
            "             1e-12 on the norm of phi, 100 iterations; error: that norm at the last iterate);",
            "             when it has v_init, assembly_v {v} (G(q) v = 0, nearest v_init). Every method",
            "             gives the same qdd, lambda, v+ and L. Rows that are redundant or inconsistent at",
            "             a state (or a singular system) do not stop the run: the keys of each refused",
            "             solve are null, constraint_errors [{keys, rows, message}] says why, and a",
            "             path:[line,col] warning naming the rows goes to standard error (exit code 0)",
            "  generate   derive each model's dynamics symbolically and write one Java class per model to",
            "             DIR/<package path>/<Class>.java; each class is compiled in memory first. All or",
            "             nothing: every bad model is reported and then nothing is written",
            "",
            "Options (before or after the model files):",
            "  --floating         give the root link a floating (6-dof) joint to the world",
            "  --strict           treat model warnings as errors",
            "  --states FILE      evaluate: the states, {\"states\": [{\"q\": [...], \"v\": [...], \"tau\": [...],",
            "                     \"a\": [...]}, ...]}; q (nq numbers) is required, v, tau and a (nv numbers each)",
            "                     are zero when missing; a quaternion is (x, y, z, w) and is normalised.",
            "                     Optional assembly inputs (constrained models; ignored otherwise): q_init (nq",
            "                     numbers), v_init (nv numbers), weights (nv positive numbers, one per velocity",
            "                     coordinate, for both assemblies; 1 when missing)",
            "                     Optional points: [{\"frame\": NAME, \"point\": [x, y, z]}, ...], NAME a link or",
            "                     frame of the model, the point in that frame's coordinates",
            "  --backend NAME     evaluate: generic (the default, the runtime's interpreter) or generated (the",
            "                     model's class, generated and compiled in memory; same output)",
            "  -d, --dir DIR      generate: the source root (created if missing)",
            "  -p, --package PKG  generate: the package of the classes",
            "  --class NAME       generate, one model only: the class name; by default the robot name cut at",
            "                     every character other than an ASCII letter or digit, each piece capitalised,",
            "                     joined, prefixed with Model if it would start with a digit or be empty, and",
            "                     suffixed with Dynamics (iiwa14 -> Iiwa14Dynamics, 2dof_planar ->",
            "                     Model2dofPlanarDynamics); two models of a run may not share a class",
            "  --report FILE      generate: write a JSON report (per model: model, class, nq, nv, generation_ms,",
            "                     operations {mul, add, trig} per method, max_method_bytes) instead of printing",
            "                     one summary line per model",
            "  --math-trig        generate: sines and cosines of joint angles by Math.sin and Math.cos (bit for",
            "                     bit Java's) instead of the faster inlined SinCos steps (within 2 ulps)",
            "  -h, --help         print this help",
            "",
            "Errors are printed as path:[line,col] message. Exit codes: 0 success, 1 internal error (for",
            "generate, a generated class that does not compile or has a method over 8000 bytes of bytecode),",
            "2 bad usage, model or states file.");

    private static final String GENERATED_BACKEND = "generated";

    private static final JsonWriter WRITER = new JsonWriter(JsonWriter.Style.PRETTY, true);

    private SymDynCli() {
    }

    /** Runs the command and exits the JVM with its exit code. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs one command, as {@link #main} does but without exiting, so that tests can call it in-process.
     *
     * @param args the command-line arguments
     * @param out  where results (JSON, usage for --help) go
     * @param err  where problems go
     * @return the exit code: 0 success, 1 internal error, 2 bad usage or input
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            if (args.length == 0) {
                out.println(USAGE);
                return CliException.BAD_INPUT;
            }
            CommandLine line = CommandLine.parse(args);
            if (line.help()) {
                out.println(USAGE);
                return 0;
            }
            if (line.command().equals(CommandLine.GENERATE)) {
                GenerateCommand.run(line, out, err);
                return 0;
            }
            JsonValue result = switch (line.command()) {
                case CommandLine.INSPECT -> inspect(line);
                case CommandLine.EVALUATE -> evaluate(line, err);
                default -> throw new IllegalStateException("unhandled command " + line.command());
            };
            out.println(WRITER.write(result));
            return 0;
        } catch (CliException e) {
            for (String l : e.lines()) {
                err.println(l);
            }
            if (e.showUsage()) {
                err.println();
                err.println(USAGE);
            }
            return e.exitCode();
        } catch (RuntimeException | StackOverflowError | LinkageError e) {
            err.println("internal error: " + describe(e));
            return 1;
        } catch (OutOfMemoryError e) {
            err.println("internal error: out of memory (" + describe(e) + "); give the JVM more with -Xmx");
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * The message of an internal error; for one without a message (an exception in a static initialiser, say),
     * its type and the first cause that has one.
     */
    private static String describe(Throwable e) {
        if (e.getMessage() != null) {
            return e.getMessage();
        }
        StringBuilder sb = new StringBuilder(e.getClass().getName());
        for (Throwable c = e.getCause(); c != null && c != e; c = c.getCause()) {
            if (c.getMessage() != null) {
                sb.append(": ").append(c.getClass().getName()).append(": ").append(c.getMessage());
                break;
            }
        }
        return sb.toString();
    }

    private static JsonValue inspect(CommandLine line) throws CliException {
        Model model = ModelLoader.load(path(line.model()), line.floating(), line.strict());
        return InspectCommand.describe(model);
    }

    private static JsonValue evaluate(CommandLine line, PrintStream err) throws CliException {
        checkBackend(line.backend());
        Model model = ModelLoader.load(path(line.model()), line.floating(), line.strict());
        List<StatesReader.State> states = StatesReader.read(path(line.states()), model);
        for (Diagnostic warning : model.warnings()) {
            err.println(warning);
        }
        ModelFunctions backend;
        if (line.backend().equals(GENERATED_BACKEND)) {
            Object generated = GenerateCommand.compileInstance(model);
            if (!(generated instanceof ModelFunctions functions)) {
                throw new IllegalStateException("the generated class " + generated.getClass().getName()
                        + " does not implement " + ModelFunctions.class.getName());
            }
            backend = functions;
        } else {
            backend = new GenericModel(model);
        }
        return EvaluateCommand.evaluate(model, backend, states, err);
    }

    /** The path of a file named on the command line; a name the file system cannot hold is bad input. */
    static Path path(String name) throws CliException {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw CliException.badInput(name + ":[0,0] cannot read file: invalid path (" + e.getReason() + ")");
        }
    }

    private static void checkBackend(String backend) throws CliException {
        switch (backend) {
            case CommandLine.DEFAULT_BACKEND, GENERATED_BACKEND -> {
            }
            default -> throw CliException.badInput("unknown backend '" + backend + "' (available: "
                    + CommandLine.DEFAULT_BACKEND + ", " + GENERATED_BACKEND + ")");
        }
    }
}
