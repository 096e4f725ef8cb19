package org.symdyn.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.symdyn.contract.ModelPart;
import org.symdyn.cli.json.JsonValue;
import org.symdyn.generator.CodeGenerator;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratedMethod;
import org.symdyn.generator.GenerationPipeline;
import org.symdyn.generator.GenerationProgress;
import org.symdyn.generator.GeneratorOptions;
import org.symdyn.generator.InProcessCompiler;
import org.symdyn.generator.JavaNames;
import org.symdyn.generator.KinematicsForm;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.model.Model;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code symdyn generate}: one Java class per model, written as {@code DIR/<package path>/<Class>.java}.
 *
 * <p>Class names: {@code --class NAME} (one model only), else {@link CodeGenerator#defaultClassName(String) derived from
 * the robot name}. Two models of one run may not map to the same class, nor to names differing only in case (they
 * would overwrite each other on a case-insensitive file system).
 *
 * <p>{@code --derivatives} also generates the derivatives of the dynamics, the Coriolis matrix and the regressor
 * ({@link GeneratorOptions#derivatives()}, the plugin's {@code <derivatives>}); without it the sources are
 * those of a run without the option, byte for byte. {@code --parts} chooses the parts of the contract a class
 * carries ({@link ModelPart}; the plugin's {@code <parts>}); {@code --derivatives} adds the derivatives to them.
 * {@code --kinematics-form} chooses the form of the kinematics ({@link KinematicsForm}).
 *
 * <p>The run is the generator's {@link GenerationPipeline}, as in the Maven plugin: all or nothing. Every model file
 * is read first and every bad one reported (its {@code path:[line,col] message} lines, a model the generator refuses
 * included), exit code 2, and then nothing is written. Each class is compiled in-process before anything is written,
 * so a source that does not compile or has a method over HotSpot's 8000-byte limit is never written: that is a
 * generator bug, exit code 1.
 *
 * <p>Output: with {@code --report FILE}, a JSON report
 * <pre>
 * {"models": [{
 *   "model": the model file as given, "class": the qualified class name, "nq": n, "nv": n,
 *   "generation_ms": {"setup": ms, "mass_matrix": ms, ..., "emission": ms, "total": ms, "compile": ms},
 *                      the generator's phases and its total, then the in-process compilation (not in total)
 *   "operations": {"mass_matrix": {"mul": n, "add": n, "trig": n}, "bias_forces", "gravity", "inverse_dynamics",
 *                  "forward_dynamics", "constraint_jacobian", "gamma", "position_error", "velocity_error",
 *                  "constrained_system" (H, C, G, γ), "constrained_system_with_errors" (and φ, φ̇),
 *                  "impulse_system" (H, G), then the generator's others (with {@code --derivatives}:
 *                  "inverse_dynamics_derivatives", "forward_dynamics_derivatives", "inverse_mass_matrix",
 *                  "coriolis_matrix", "regressor", "inertial_parameters")},
 *   "max_method_bytes": bytecode size of the largest method of the class
 * }, ...]}
 * </pre>
 * and nothing on standard output; without it, one summary line per model on standard output.
 */
@Command(name = "generate", sortOptions = false, usageHelpAutoWidth = true, usageHelpWidth = 100,
        header = "Write one Java dynamics class per model.",
        description = {"Derives each model's dynamics symbolically and writes its class to"
                + " DIR/<package path>/<Class>.java, compiled first. All or nothing: every"
                + " bad model is reported, and then nothing is written. One summary line per model, or with"
                + " --report a JSON report (per model: model, class, nq, nv, generation_ms, operations {mul, add,"
                + " trig} per method, max_method_bytes) and nothing on standard output.",
            "Mesh files are not loaded (a generated class never uses shapes): no package path is needed."},
        footer = {"", "Exit codes: 0 success, 1 internal error (a generated class that does not compile or has a"
                + " method over 8000 bytes of bytecode: a bug), 2 bad usage, bad model or an output that cannot be"
                + " written (every problem printed as path:[line,col] message)."})
final class GenerateCommand implements CliCommand {
    /** The package of classes generated for {@code evaluate --backend generated}. */
    static final String EVALUATE_PACKAGE = "org.symdyn.generated";

    /** The dynamics part's operation keys, always in a report: a class carries them whatever its --parts. */
    static final List<GeneratedMethod> DYNAMICS_OPERATIONS = List.of(GeneratedMethod.MASS_MATRIX,
            GeneratedMethod.BIAS_FORCES, GeneratedMethod.GRAVITY, GeneratedMethod.INVERSE_DYNAMICS,
            GeneratedMethod.FORWARD_DYNAMICS);

    /**
     * The operation keys of the report, in report order, where the class carries them (the constraints' keys are
     * absent with --parts leaving constraints out); the generator's others, if any, follow.
     */
    static final List<GeneratedMethod> OPERATIONS = List.of(GeneratedMethod.MASS_MATRIX, GeneratedMethod.BIAS_FORCES,
            GeneratedMethod.GRAVITY, GeneratedMethod.INVERSE_DYNAMICS, GeneratedMethod.FORWARD_DYNAMICS,
            GeneratedMethod.CONSTRAINT_JACOBIAN, GeneratedMethod.GAMMA, GeneratedMethod.POSITION_ERROR,
            GeneratedMethod.VELOCITY_ERROR, GeneratedMethod.CONSTRAINED_SYSTEM,
            GeneratedMethod.CONSTRAINED_SYSTEM_WITH_ERRORS, GeneratedMethod.IMPULSE_SYSTEM);

    @Parameters(paramLabel = "MODEL.urdf", arity = "1..*", description = "The model files.")
    List<String> models;

    @Option(names = {"-d", "--dir"}, paramLabel = "DIR", required = true, order = 1,
            description = "The source root the classes are written under (created if missing).")
    String dir;

    @Option(names = {"-p", "--package"}, paramLabel = "PACKAGE", required = true, order = 2,
            description = "The package of the classes.")
    String packageName;

    @Option(names = "--class", paramLabel = "NAME", order = 3,
            description = "With one model only: the class name. By default the robot name cut at every character"
                    + " other than an ASCII letter or digit, each piece capitalised, joined, prefixed with Model if"
                    + " it would start with a digit or be empty, and suffixed with Dynamics (iiwa14 ->"
                    + " Iiwa14Dynamics, 2dof_planar -> Model2dofPlanarDynamics). Two models of a run may not share"
                    + " a class.")
    String className;

    @Option(names = "--report", paramLabel = "REPORT.json", order = 4,
            description = "Write a JSON report instead of printing one summary line per model.")
    String report;

    @Option(names = "--math-trig", order = 5,
            description = "Sines and cosines of joint angles by Math.sin and Math.cos (bit for bit Java's) instead"
                    + " of the faster inlined SinCos steps (within 2 ulps).")
    boolean mathTrig;

    @Option(names = "--derivatives", order = 6,
            description = "Also generate the derivatives of the dynamics (dtau/dq, dtau/dv, dvdot/dq, dvdot/dv,"
                    + " Minv), the Coriolis matrix and the regressor: the classes then implement"
                    + " org.symdyn.contract.DynamicsDerivatives. Generation takes longer (1.0-1.6x for the"
                    + " robots tried).")
    boolean derivatives;

    @Option(names = "--parts", paramLabel = "PARTS", order = 7,
            description = "The parts of the contract the classes carry, comma separated: dynamics (H, C, g, ID, FD;"
                    + " always), kinematics (poses, velocities, accelerations, Jacobians; contact needs them),"
                    + " constraints (phi, phidot, G, gamma and the fused evaluations every constraint set binds),"
                    + " derivatives (as --derivatives), recursive_constraints (the constrained dynamics of the rows"
                    + " without H, for the solvers' recursive method). Default: dynamics,kinematics,constraints. A"
                    + " method of a part"
                    + " left out throws, naming the part and this option.")
    String parts;

    @Option(names = "--kinematics-form", paramLabel = "FORM", order = 8,
            description = "by-size (default): a straight-line method per body (a body's query computes its branch"
                    + " only), the large-model forms above a size; per-body: per body at any size; compact: the"
                    + " kinematics from shared passes over the tree (a third of the source for a 7-dof arm, each"
                    + " query 1.3-2x slower); shared-passes: the large-model forms at any size.")
    String kinematicsForm;

    @Mixin
    QuietOption quiet = new QuietOption();

    @Mixin
    CommonOptions options = new CommonOptions();

    /** The parts of {@code --parts} (dynamics among them), by default {@link ModelPart#defaults()}. */
    private Set<ModelPart> parsedParts() throws CliException {
        try {
            return parts == null ? ModelPart.defaults() : ModelPart.ofOptionList(parts);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("generate", "option --parts: " + e.getMessage());
        }
    }

    /** The form of {@code --kinematics-form}, by default {@link KinematicsForm#BY_SIZE}. */
    private KinematicsForm parsedKinematicsForm() throws CliException {
        try {
            return kinematicsForm == null ? KinematicsForm.BY_SIZE : KinematicsForm.ofOptionName(kinematicsForm);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("generate", "option --kinematics-form: " + e.getMessage());
        }
    }

    /**
     * Runs {@code generate} through the {@link GenerationPipeline} the Maven plugin uses too.
     *
     * @throws CliException bad usage (a bad package or class name, {@code --class} with several models), bad
     *                      models (every one reported), clashing class names, an output that cannot be written
     *                      (exit code 2)
     */
    @Override
    public void run(PrintStream out, PrintStream err) throws CliException {
        for (String[] value : new String[][] {{"-d", dir}, {"-p", packageName}, {"--class", className},
            {"--report", report}}) {
            if (value[1] != null && value[1].isEmpty()) {
                throw CliException.usage("generate", "option " + value[0] + " needs a non-empty value");
            }
        }
        String packageProblem = JavaNames.packageNameProblem(packageName);
        if (packageProblem != null) {
            throw CliException.usage("generate", "package '" + packageName + "' " + packageProblem);
        }
        if (className != null) {
            if (models.size() != 1) {
                throw CliException.usage("generate", "option --class needs exactly one model file ("
                        + models.size() + " given); without it each class is named after its robot");
            }
            String classProblem = JavaNames.classNameProblem(className);
            if (classProblem != null) {
                throw CliException.usage("generate", "class name '" + className + "' " + classProblem);
            }
        }
        Path root = outputPath(dir);
        Path reportFile = report == null ? null : outputPath(report);
        if (reportFile != null && Files.isDirectory(reportFile)) {
            throw CliException.badInput(reportFile + ":[0,0] cannot write the report: it is a directory");
        }
        if (reportFile != null) {
            probeWritable(reportFile);
        }
        List<GenerationPipeline.ModelInput> inputs = new ArrayList<>();
        for (String file : models) {
            inputs.add(GenerationPipeline.ModelInput.of(SymDynCli.path(file), file, className, options.floating));
        }
        GenerationPipeline pipeline = GenerationPipeline.builder()
                .packageName(packageName)
                .outputDirectory(root)
                .strict(options.strict)
                .mathTrig(mathTrig)
                .derivatives(derivatives)
                .parts(parsedParts())
                .kinematics(parsedKinematicsForm())
                .clashHint("generate one of them in another run, named with --class")
                .nameHint("name the class with --class")
                .progress(quiet.progress(err))
                .build();
        GenerationPipeline.Result result;
        try {
            result = pipeline.run(inputs); // a class that does not compile is a bug: exit 1
        } catch (GenerationPipeline.OutputException e) {
            throw CliException.badInput(e.file() + ":[0,0] " + e.reason());
        }
        if (!result.succeeded()) {
            throw CliException.badInput(result.problems().stream().map(Object::toString).toList());
        }
        if (reportFile != null) {
            Path parent = reportFile.toAbsolutePath().getParent();
            try {
                if (parent != null) {
                    Files.createDirectories(parent);
                }
            } catch (IOException | RuntimeException e) {
                throw cannotWrite(parent, e);
            }
            write(reportFile, SymDynCli.WRITER.write(report(result.outputs())) + "\n");
        } else {
            for (GenerationPipeline.Output o : result.outputs()) {
                out.println(summary(o));
            }
        }
    }

    /**
     * Generates and compiles the class of {@code model} in process and returns an instance, for
     * {@code evaluate --backend generated} and {@code simulate --backend generated}; with {@code derivatives}
     * ({@code evaluate --backend generated --derivatives}) it also implements
     * {@link org.symdyn.contract.DynamicsDerivatives}. The stages (deriving and emitting, compiling) are shown by
     * {@code progress}, each line starting with {@code name}, the model file as given.
     *
     * @throws CliException the generator's refusal of the model, {@code path:[line,col] message} (exit code 2)
     */
    static Object compileInstance(Model model, boolean derivatives, Progress progress, String name)
            throws CliException {
        GeneratedClass gen;
        String className = CodeGenerator.defaultClassName(model.name());
        progress.started(name + ": " + GenerationProgress.Stage.DERIVE.doing() + " " + className);
        long start = System.nanoTime();
        try {
            gen = new CodeGenerator().generate(model,
                    GeneratorOptions.of(EVALUATE_PACKAGE, className).withDerivatives(derivatives));
        } catch (UnsupportedOperationException e) {
            throw CliException.badInput(e.getMessage());
        }
        progress.ended(name + ": " + GenerationProgress.Stage.DERIVE.done(), Progress.millisSince(start));
        progress.started(name + ": compiling " + className);
        start = System.nanoTime();
        Class<?> type;
        try {
            type = InProcessCompiler.compile(gen).type();
            progress.ended(name + ": compiled", Progress.millisSince(start));
        } catch (InProcessCompiler.LimitException e) {
            throw CliException.badInput(model.body(0).location() + " " + e.getMessage()
                    + ": the model is too large for the generated backend; use --backend generic");
        }
        try {
            return type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate the generated class " + gen.qualifiedName() + ": "
                    + e, e);
        }
    }

    private static JsonValue report(List<GenerationPipeline.Output> results) {
        List<JsonValue> entries = new ArrayList<>();
        for (GenerationPipeline.Output g : results) {
            GeneratedClass gen = g.generated();
            JsonValue.ObjectBuilder millis = JsonValue.objectBuilder();
            gen.generationMillis().forEach((phase, ms) -> millis.put(phase, ms));
            millis.put("compile", g.compileMillis());
            JsonValue.ObjectBuilder ops = JsonValue.objectBuilder();
            for (GeneratedMethod method : OPERATIONS) {
                OperationCount count = gen.operations().get(method);
                if (count != null) {
                    ops.put(method.key(), operations(count));
                } else if (DYNAMICS_OPERATIONS.contains(method)) {
                    throw new IllegalStateException("the generator gave no operation count for " + method.key());
                }
            }
            gen.operations().forEach((method, count) -> {
                if (!OPERATIONS.contains(method)) {
                    ops.put(method.key(), operations(count));
                }
            });
            entries.add(JsonValue.objectBuilder()
                    .put("model", g.input().name())
                    .put("class", gen.qualifiedName())
                    .put("nq", gen.nq())
                    .put("nv", gen.nv())
                    .put("generation_ms", millis.build())
                    .put("operations", ops.build())
                    .put("max_method_bytes", g.maxMethodBytes())
                    .build());
        }
        return JsonValue.objectBuilder().put("models", JsonValue.array(entries)).build();
    }

    private static JsonValue operations(OperationCount count) {
        return JsonValue.objectBuilder()
                .put("mul", count.mul())
                .put("add", count.add())
                .put("trig", count.trig())
                .build();
    }

    /** {@code pkg.Class: 7 dof (nq 7), generated in 812 ms + compiled in 402 ms, mass matrix ... -> file}. */
    private static String summary(GenerationPipeline.Output g) {
        GeneratedClass gen = g.generated();
        OperationCount h = gen.operations().get(GeneratedMethod.MASS_MATRIX);
        Long total = gen.generationMillis().get("total");
        return gen.qualifiedName() + ": " + gen.nv() + " dof (nq " + gen.nq() + "), generated in "
                + (total == null ? "?" : total) + " ms + compiled in " + g.compileMillis() + " ms, mass matrix "
                + (h == null ? "?" : h.flops() + " flops (" + h.mul() + " mul, " + h.add() + " add)") + " -> "
                + g.file();
    }

    static void write(Path file, String text) throws CliException {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw cannotWrite(file, e);
        }
    }

    /** A file that cannot be written, as bad input: {@code path:[0,0] cannot write file: reason}. */
    static CliException cannotWrite(Path file, Exception e) {
        String reason;
        if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof FileAlreadyExistsException x) {
            reason = "a file is in the way: " + x.getFile();
        } else if (e instanceof FileSystemException x && x.getReason() != null) {
            reason = x.getReason();
        } else if (e.getMessage() != null) {
            reason = e.getMessage();
        } else {
            reason = e.getClass().getSimpleName();
        }
        return CliException.badInput(file + ":[0,0] cannot write file: " + reason);
    }

    /** An output path named on the command line; a name the file system cannot hold is bad input. */
    static Path outputPath(String name) throws CliException {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw CliException.badInput(name + ":[0,0] cannot write file: invalid path (" + e.getReason() + ")");
        }
    }

    /**
     * An output file named on the command line ({@code -o}, {@code --page}, {@code --output}), checked before anything
     * runs: not a directory, and in a directory that exists (a batch of rollouts ran to the end before the write
     * found none).
     */
    /**
     * Creates the report's directories and the file itself once, then removes a file that was not there, so that a
     * report that cannot be written is refused before any class is (all or nothing: a report under /proc was refused
     * after the sources were written).
     */
    private static void probeWritable(Path file) throws CliException {
        Path parent = file.toAbsolutePath().getParent();
        boolean existed = Files.exists(file);
        // the directories this probe creates, deepest first: removed again, the report's run creates them
        List<Path> created = new ArrayList<>();
        for (Path p = parent; p != null && !Files.exists(p); p = p.getParent()) {
            created.add(p);
        }
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.newOutputStream(file, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE).close();
            if (!existed) {
                Files.delete(file);
            }
            for (Path p : created) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | RuntimeException e) {
            throw cannotWrite(file, e);
        }
    }

    static Path outputFile(String name) throws CliException {
        Path p = outputPath(name);
        if (Files.isDirectory(p)) {
            throw CliException.badInput(p + ":[0,0] cannot write file: it is a directory");
        }
        Path parent = p.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw CliException.badInput(p + ":[0,0] cannot write file: its directory " + parent + " does not exist");
        }
        return p;
    }
}
