package org.symdyn.generator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.symdyn.contract.ModelPart;
import org.symdyn.generator.symbolic.SymbolicConstraints;
import org.symdyn.generator.symbolic.UnsupportedModelException;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.io.ModelFileReader;

/**
 * The one way model files become Java sources, shared by the Maven plugin and the command line: read every model,
 * collect every problem, check the class names, generate, compile-check, and write all or nothing.
 *
 * <ol>
 * <li><b>Read</b> every model to generate. Every problem of every bad model is collected: the reader's diagnostics,
 * a file that is missing, a directory or given twice, a derived class name that cannot name a class, a constraint
 * the generator cannot derive ({@link SymbolicConstraints#requireSupported}). Each model's class is
 * {@link ModelInput#className()} or derived from the robot name ({@link CodeGenerator#defaultClassName}).</li>
 * <li><b>Check</b> that no two models (also those {@linkplain ModelInput#upToDate up to date}, which are not read)
 * give the same class or classes whose names differ only in case (they would overwrite each other on a
 * case-insensitive file system), then the caller's {@linkplain Builder#check own check}.</li>
 * <li><b>Generate and compile</b> each class in process ({@link InProcessCompiler}), so that a source that does not
 * compile or has a method over HotSpot's 8000-byte limit is never written: that is a generator bug, thrown as an
 * {@link IllegalStateException}, not a problem of the model. A class over a limit of the class-file format (javac's
 * "too many constants") is a problem of the model: too large for the options it is generated with.</li>
 * <li><b>Write</b>, only when there is no problem at all, every source to
 * {@code outputDirectory/<package path>/<Class>.java} (unless the file already holds those bytes).</li>
 * </ol>
 * A run with problems generates and writes nothing and returns them in {@link Result#problems()}, in the order of
 * the inputs; model warnings are in {@link Result#warnings()} either way. A {@linkplain Builder#progress progress
 * listener} is told each model's stages (read, derive and emit, compile check) and their durations as they go, and
 * each warning as soon as its model is read.
 *
 * <p>One instance serves one run at a time (it holds one {@link CodeGenerator}, whose Symja evaluator is per
 * thread); the generator is created only when a model is to be generated.
 */
public final class GenerationPipeline {
    private final String packageName;
    private final Path outputDirectory;
    private final boolean strict;
    private final boolean closedForm;
    private final boolean mathTrig;
    private final boolean derivatives;
    private final Set<ModelPart> parts;
    private final KinematicsForm kinematics;
    private final String clashHint;
    private final String nameHint;
    private final Function<Map<ModelInput, String>, List<Problem>> check;
    private final SourceWriter writer;
    private final GenerationProgress progress;
    private CodeGenerator codeGenerator;

    private GenerationPipeline(Builder b) {
        this.packageName = Objects.requireNonNull(b.packageName, "packageName");
        String problem = JavaNames.packageNameProblem(packageName);
        if (problem != null) {
            throw new IllegalArgumentException("package '" + packageName + "' " + problem);
        }
        this.outputDirectory = b.outputDirectory;
        this.strict = b.strict;
        this.closedForm = b.closedForm;
        this.mathTrig = b.mathTrig;
        this.parts = EnumSet.copyOf(b.parts);
        if (b.derivatives) {
            this.parts.add(ModelPart.DERIVATIVES);
        }
        if (!parts.contains(ModelPart.DYNAMICS)) {
            throw new IllegalArgumentException("the dynamics part cannot be left out: every solver and integrator"
                    + " needs H, C, g, tau and vdot");
        }
        this.derivatives = parts.contains(ModelPart.DERIVATIVES);
        this.kinematics = b.kinematics;
        this.clashHint = b.clashHint;
        this.nameHint = b.nameHint;
        this.check = b.check;
        this.writer = b.writer;
        this.progress = b.progress;
    }

    /** A builder; {@link Builder#packageName} is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * One model file of a run.
     *
     * @param file         the model file
     * @param name         how messages name the file (the path as the user gave it, or an absolute path)
     * @param className    the class name, or null to derive it from the robot name; for an up-to-date model, the
     *                     class it has
     * @param floatingBase give the root link a 6-dof floating joint to the world
     * @param upToDate     not to be read or generated: the model takes part in the class-name checks only
     */
    public record ModelInput(Path file, String name, String className, boolean floatingBase, boolean upToDate) {
        public ModelInput {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(name, "name");
            if (upToDate && className == null) {
                throw new IllegalArgumentException("an up-to-date model needs its class name");
            }
        }

        /** A model to read and generate, named in messages by {@code name}. */
        public static ModelInput of(Path file, String name, String className, boolean floatingBase) {
            return new ModelInput(file, name, className, floatingBase, false);
        }

        /** A model generated before, unchanged, whose class is {@code className}: it is not read again. */
        public static ModelInput upToDate(Path file, String name, String className) {
            return new ModelInput(file, name, className, false, true);
        }
    }

    /** The warning of {@link #loopedLineOnLineRows}. */
    static final String LOOPED_LINE_ON_LINE = "the line-on-line rows' derivatives are not generated: the model is too"
            + " large to unroll its derivatives (they are looped), and the runtime differentiates contacts, loops and"
            + " couplers only, so ConstrainedDynamicsDerivatives refuses this class's rows";

    /**
     * True if the class of {@code model} under {@code options} has looped derivatives and line-on-line rows, whose
     * derivatives neither it nor the runtime gives. Its row derivatives are left out, not generated, because they
     * cost the looped class's generation many times over (a 43-link chain with one such row: 119 s and 6.2 GB
     * against 16 s and 1.1 GB).
     */
    static boolean loopedLineOnLineRows(Model model, GeneratorOptions options) {
        return options.derivatives() && options.carries(ModelPart.CONSTRAINTS)
                && CodeGenerator.loopedDerivatives(model) && model.constraints().stream()
                        .anyMatch(c -> c instanceof org.symdyn.model.LineOnLineConstraintModel);
    }

    /** Why a part asked for is not in a class (the only part the generator may leave out). */
    static final String OMITTED_PART = "the recursive constrained system is generated only for a model with"
            + " constraint rows, and not in the large-model form (its H looped); the class's parts() lists what it"
            + " implements";

    /** The location of a diagnostic about an input's file as a whole: {@code path:[0,0]}. */
    static SourceLocation whole(ModelInput input) {
        return new SourceLocation(input.name(), 0, 0);
    }

    /** A problem or warning of one input: the diagnostic is located in the model file when the line is known. */
    public record Problem(ModelInput input, Diagnostic diagnostic) {
        /** An error at {@code [0,0]} of the input's file. */
        public static Problem of(ModelInput input, String message) {
            return new Problem(input, Diagnostic.error(whole(input), message));
        }

        /** {@code path:[line,col] message}. */
        @Override
        public String toString() {
            return diagnostic.toString();
        }
    }

    /**
     * One generated class.
     *
     * @param input          the model it comes from
     * @param model          the model as read
     * @param generated      the class's source and costs
     * @param file           where it is (or would be) written: {@code outputDirectory/<package path>/<Class>.java},
     *                       null when the pipeline has no output directory
     * @param source         the source's bytes (UTF-8)
     * @param compileMillis  how long the in-memory compilation took
     * @param maxMethodBytes the bytecode size of the class's largest method
     * @param written        whether the file was written (false when it already held these bytes, or nothing is
     *                       written)
     */
    public record Output(ModelInput input, Model model, GeneratedClass generated, Path file,
            byte[] source, long compileMillis, int maxMethodBytes, boolean written) {
    }

    /**
     * What a run did.
     *
     * @param outputs  the generated classes, in input order (none when there are problems)
     * @param warnings the models' warnings, in input order
     * @param problems every problem, in input order (then the caller's check's); none when the run succeeded
     */
    public record Result(List<Output> outputs, List<Problem> warnings, List<Problem> problems) {
        public Result {
            outputs = List.copyOf(outputs);
            warnings = List.copyOf(warnings);
            problems = List.copyOf(problems);
        }

        /** Whether there were no problems (then everything was generated and written). */
        public boolean succeeded() {
            return problems.isEmpty();
        }
    }

    /** Writes one source file. */
    @FunctionalInterface
    public interface SourceWriter {
        /**
         * Writes {@code bytes} to {@code file}, whose directory exists.
         *
         * @return whether the file was written (false when it already held those bytes)
         */
        boolean write(Path file, byte[] bytes) throws IOException;
    }

    /**
     * An output could not be written: the directory, a source file, or an output directory that is a file. Some
     * sources may have been written before it.
     */
    public static final class OutputException extends Exception {
        private static final long serialVersionUID = 1L;

        private final transient Path file;
        private final String reason;

        public OutputException(Path file, String reason, Throwable cause) {
            super(file + ": " + reason, cause);
            this.file = file;
            this.reason = reason;
        }

        /** The file or directory that could not be written. */
        public Path file() {
            return file;
        }

        /** Why, such as {@code cannot write file: permission denied}. */
        public String reason() {
            return reason;
        }
    }

    /** Configures a {@link GenerationPipeline}. */
    public static final class Builder {
        private String packageName;
        private Path outputDirectory;
        private boolean strict;
        private boolean closedForm;
        private boolean mathTrig;
        private boolean derivatives;
        private Set<ModelPart> parts = ModelPart.defaults();
        private KinematicsForm kinematics = KinematicsForm.BY_SIZE;
        private String clashHint = "generate them into different packages";
        private String nameHint = "name the class yourself";
        private Function<Map<ModelInput, String>, List<Problem>> check = classes -> List.of();
        private SourceWriter writer = GenerationPipeline::writeIfChanged;
        private GenerationProgress progress = GenerationProgress.NONE;

        private Builder() {
        }

        /** The package of every generated class (required; a valid package name). */
        public Builder packageName(String packageName) {
            this.packageName = packageName;
            return this;
        }

        /** The source root the classes are written under; without one, the run generates and compiles only. */
        public Builder outputDirectory(Path outputDirectory) {
            this.outputDirectory = outputDirectory;
            return this;
        }

        /** Model warnings are errors. */
        public Builder strict(boolean strict) {
            this.strict = strict;
            return this;
        }

        /** {@link GeneratorOptions#closedForm()}. */
        public Builder closedForm(boolean closedForm) {
            this.closedForm = closedForm;
            return this;
        }

        /** {@link GeneratorOptions#mathTrig()}. */
        public Builder mathTrig(boolean mathTrig) {
            this.mathTrig = mathTrig;
            return this;
        }

        /** {@link GeneratorOptions#derivatives()}: adds {@link ModelPart#DERIVATIVES} to the {@link #parts}. */
        public Builder derivatives(boolean derivatives) {
            this.derivatives = derivatives;
            return this;
        }

        /**
         * {@link GeneratorOptions#parts()} ({@link ModelPart#DYNAMICS} among them; by default
         * {@link ModelPart#defaults()}); {@link #derivatives} on adds the derivatives to them.
         */
        public Builder parts(Set<ModelPart> parts) {
            this.parts = EnumSet.copyOf(parts);
            return this;
        }

        /** {@link GeneratorOptions#kinematics()} (by default {@link KinematicsForm#BY_SIZE}). */
        public Builder kinematics(KinematicsForm kinematics) {
            this.kinematics = Objects.requireNonNull(kinematics, "kinematics");
            return this;
        }

        /**
         * What to do about two models with one class, ending that message: {@code "name one of them in classNames
         * or models"} (the plugin), {@code "generate one of them in another run, named with --class"} (the command
         * line).
         */
        public Builder clashHint(String clashHint) {
            this.clashHint = Objects.requireNonNull(clashHint);
            return this;
        }

        /** What to do about a class name derived from the robot name that cannot name a class. */
        public Builder nameHint(String nameHint) {
            this.nameHint = Objects.requireNonNull(nameHint);
            return this;
        }

        /**
         * A check of the caller's, run after the models are read, with the class of every input that has one (in
         * input order); its problems stop the run like the pipeline's own.
         */
        public Builder check(Function<Map<ModelInput, String>, List<Problem>> check) {
            this.check = Objects.requireNonNull(check);
            return this;
        }

        /** How sources are written; by default with {@link Files}, skipping a file that holds the same bytes. */
        public Builder writer(SourceWriter writer) {
            this.writer = Objects.requireNonNull(writer);
            return this;
        }

        /** Who is told each model's stages and warnings as the run goes; {@link GenerationProgress#NONE} by default. */
        public Builder progress(GenerationProgress progress) {
            this.progress = Objects.requireNonNull(progress);
            return this;
        }

        /** The pipeline. @throws IllegalArgumentException if the package name is not valid */
        public GenerationPipeline build() {
            return new GenerationPipeline(this);
        }
    }

    /** What is known about one input during a run. */
    private static final class Entry {
        final ModelInput input;
        Model model;
        String className;

        Entry(ModelInput input) {
            this.input = input;
            this.className = input.className();
        }
    }

    /**
     * Runs the pipeline on the inputs.
     *
     * @return the outputs, or the problems (then nothing was generated or written)
     * @throws OutputException       the output directory or a source could not be written
     * @throws IllegalStateException a generated class does not compile or has a method over 8000 bytes: a
     *                               generator bug, named with the model file
     */
    public Result run(List<ModelInput> inputs) throws OutputException {
        if (outputDirectory != null && Files.exists(outputDirectory) && !Files.isDirectory(outputDirectory)) {
            throw new OutputException(outputDirectory, "cannot write into it: not a directory", null);
        }
        List<Entry> entries = inputs.stream().map(Entry::new).toList();
        List<Problem> warnings = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();

        // 1. read every model to generate
        Map<Path, String> files = new HashMap<>(); // the files, absolute and normalised -> as named
        for (Entry e : entries) {
            ModelInput in = e.input;
            String earlier = files.putIfAbsent(in.file().toAbsolutePath().normalize(), in.name());
            if (earlier != null) {
                problems.add(Problem.of(in, "this model file is given twice"
                        + (earlier.equals(in.name()) ? "" : " (also as " + earlier + ")")));
                e.className = null;
                continue;
            }
            if (in.upToDate()) {
                continue;
            }
            progress.stageStarted(in, GenerationProgress.Stage.READ, e.className);
            long readStart = System.nanoTime();
            List<Problem> read = read(e, warnings);
            if (read.isEmpty()) {
                progress.stageEnded(in, GenerationProgress.Stage.READ, (System.nanoTime() - readStart) / 1_000_000);
            }
            problems.addAll(read);
            if (!read.isEmpty()) {
                e.className = null;
            }
        }

        // 2. class names: no two alike, then the caller's check
        problems.addAll(clashes(entries));
        Map<ModelInput, String> classes = new LinkedHashMap<>();
        for (Entry e : entries) {
            if (e.className != null) {
                classes.put(e.input, e.className);
            }
        }
        problems.addAll(check.apply(classes));
        if (!problems.isEmpty()) {
            return new Result(List.of(), warnings, problems);
        }

        // 3. generate and compile-check each class in process
        List<Output> outputs = new ArrayList<>();
        Path packageDir = outputDirectory == null ? null : outputDirectory.resolve(packageName.replace('.', '/'));
        for (Entry e : entries) {
            if (e.input.upToDate()) {
                continue;
            }
            GeneratedClass generated;
            progress.stageStarted(e.input, GenerationProgress.Stage.DERIVE, e.className);
            long deriveStart = System.nanoTime();
            try {
                if (codeGenerator == null) {
                    codeGenerator = new CodeGenerator();
                }
                GeneratorOptions options = GeneratorOptions.of(packageName, e.className).withClosedForm(closedForm)
                        .withMathTrig(mathTrig).withParts(parts).withKinematics(kinematics);
                generated = codeGenerator.generate(e.model, options);
                if (loopedLineOnLineRows(e.model, options)) {
                    warn(new Problem(e.input, Diagnostic.warning(whole(e.input), LOOPED_LINE_ON_LINE)), warnings);
                }
                for (ModelPart asked : options.parts()) {
                    if (!generated.parts().contains(asked)) {
                        warn(new Problem(e.input, Diagnostic.warning(whole(e.input), "the part " + asked.optionName()
                                + " is not generated for this model: " + OMITTED_PART)), warnings);
                    }
                }
            } catch (UnsupportedModelException x) {
                problems.add(located(e.input, x));
                continue;
            } catch (UnsupportedOperationException x) {
                problems.add(Problem.of(e.input, x.getMessage() == null ? "(no message)" : x.getMessage()));
                continue;
            } catch (IllegalArgumentException x) {
                problems.add(Problem.of(e.input, x.getMessage()));
                continue;
            }
            progress.stageEnded(e.input, GenerationProgress.Stage.DERIVE,
                    (System.nanoTime() - deriveStart) / 1_000_000);
            progress.stageStarted(e.input, GenerationProgress.Stage.COMPILE_CHECK, e.className);
            long t0 = System.nanoTime();
            InProcessCompiler.Compiled compiled;
            try {
                compiled = InProcessCompiler.compile(generated);
            } catch (InProcessCompiler.LimitException x) {
                problems.add(new Problem(e.input, Diagnostic.error(e.model.body(0).location(), x.getMessage()
                        + ": the model is too large to generate" + (derivatives ? " with the derivatives option;"
                                + " generate it without the option and take the derivatives from GenericDynamics"
                                : ""))));
                continue;
            } catch (IllegalStateException x) {
                throw new IllegalStateException("generator bug on " + e.input.name() + ": " + x.getMessage(), x);
            }
            long compileMillis = (System.nanoTime() - t0) / 1_000_000;
            progress.stageEnded(e.input, GenerationProgress.Stage.COMPILE_CHECK, compileMillis);
            int maxBytes = compiled.methodSizes().values().stream().mapToInt(Integer::intValue).max().orElse(0);
            outputs.add(new Output(e.input, e.model, generated,
                    packageDir == null ? null : packageDir.resolve(generated.className() + ".java"),
                    generated.source().getBytes(StandardCharsets.UTF_8), compileMillis, maxBytes, false));
        }
        if (!problems.isEmpty()) {
            return new Result(List.of(), warnings, problems);
        }

        // 4. write all
        if (packageDir != null && !outputs.isEmpty()) {
            try {
                Files.createDirectories(packageDir);
            } catch (IOException | RuntimeException x) {
                throw new OutputException(packageDir, "cannot write file: " + reason(x), x);
            }
            for (int i = 0; i < outputs.size(); i++) {
                Output o = outputs.get(i);
                boolean written;
                try {
                    written = writer.write(o.file(), o.source());
                } catch (IOException | RuntimeException x) {
                    throw new OutputException(o.file(), "cannot write file: " + reason(x), x);
                }
                outputs.set(i, new Output(o.input(), o.model(), o.generated(), o.file(), o.source(),
                        o.compileMillis(), o.maxMethodBytes(), written));
            }
        }
        return new Result(outputs, warnings, problems);
    }

    /** Keeps a warning for the result and tells the progress of it at once. */
    private void warn(Problem warning, List<Problem> warnings) {
        warnings.add(warning);
        progress.warning(warning);
    }

    /** Reads one model, sets its model and class name; returns its problems, adds its warnings. */
    private List<Problem> read(Entry e, List<Problem> warnings) {
        ModelInput in = e.input;
        List<Problem> problems = new ArrayList<>();
        Model model;
        try {
            model = readModel(in.file(), in.floatingBase(), strict);
        } catch (ModelException x) {
            for (Diagnostic d : x.diagnostics()) {
                problems.add(new Problem(in, d));
            }
            if (problems.isEmpty()) {
                problems.add(Problem.of(in, String.valueOf(x.getMessage())));
            }
            return problems;
        }
        for (Diagnostic d : model.warnings()) {
            warn(new Problem(in, d), warnings);
        }
        e.model = model;
        if (e.className == null) {
            String derived = CodeGenerator.defaultClassName(model.name());
            String nameProblem = JavaNames.classNameProblem(derived);
            if (nameProblem != null) {
                problems.add(Problem.of(in, "the class of robot '" + model.name() + "', " + derived + " (derived from"
                        + " the robot name), " + nameProblem + "; " + nameHint));
                return problems;
            }
            e.className = derived;
        }
        String qualifiedProblem = JavaNames.qualifiedNameProblem(packageName, e.className);
        if (qualifiedProblem != null) {
            problems.add(Problem.of(in, "the class " + packageName + "." + e.className + " " + qualifiedProblem + "; "
                    + nameHint));
            return problems;
        }
        try {
            SymbolicConstraints.requireSupported(model);
        } catch (UnsupportedModelException x) {
            problems.add(located(in, x));
        }
        return problems;
    }

    /**
     * Reads a model file as the pipeline does ({@link ModelFileReader}: URDF or MJCF by the file's extension): a
     * missing file or a directory is a diagnostic at {@code [0,0]}, as is the reader's refusal without a diagnostic.
     *
     * @throws ModelException every problem of the file, each located
     */
    public static Model readModel(Path file, boolean floatingBase, boolean strict) throws ModelException {
        return readModel(file, new ModelFileReader.Options(floatingBase, strict, false));
    }

    /**
     * Reads a model file with all the readers' options ({@link ModelFileReader#read}).
     *
     * @throws ModelException every problem of the file, each located
     */
    public static Model readModel(Path file, ModelFileReader.Options options) throws ModelException {
        return ModelFileReader.read(file, options);
    }

    /** Two inputs may not give the same class, nor classes differing only in case: the later one is reported. */
    private List<Problem> clashes(List<Entry> entries) {
        List<Problem> problems = new ArrayList<>();
        Map<String, Entry> owners = new HashMap<>();
        for (Entry e : entries) {
            if (e.className == null) {
                continue;
            }
            Entry owner = owners.putIfAbsent(e.className.toLowerCase(Locale.ROOT), e);
            if (owner == null) {
                continue;
            }
            String self = e.model != null ? "the class of robot '" + e.model.name() + "', " + qualified(e.className)
                    + "," : "its class " + qualified(e.className);
            String relation = owner.className.equals(e.className) ? " is also"
                    : " differs only in case from " + qualified(owner.className) + ",";
            String other = owner.input.name() + (owner.model != null ? " (robot '" + owner.model.name() + "')" : "");
            problems.add(Problem.of(e.input, self + relation + " the class of " + other + "; " + clashHint));
        }
        return problems;
    }

    private String qualified(String className) {
        return packageName + "." + className;
    }

    /**
     * The problem of a refusal of the generator's: located at its line and column in the input's file (named as
     * the input names it), with its reason.
     */
    static Problem located(ModelInput in, UnsupportedModelException refusal) {
        SourceLocation at = refusal.location();
        return new Problem(in, Diagnostic.error(new SourceLocation(in.name(), at.line(), at.column()),
                refusal.reason()));
    }

    /** Writes {@code bytes} unless {@code file} already holds them; true if written. */
    public static boolean writeIfChanged(Path file, byte[] bytes) throws IOException {
        if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), bytes)) {
            return false;
        }
        Files.write(file, bytes);
        return true;
    }

    /** A short reason for an I/O failure: "permission denied", "a file is in the way: x", or the message. */
    private static String reason(Exception e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileAlreadyExistsException x) {
            return "a file is in the way: " + x.getFile();
        }
        if (e instanceof FileSystemException x && x.getReason() != null) {
            return x.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
