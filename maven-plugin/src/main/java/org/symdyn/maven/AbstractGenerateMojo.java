package org.symdyn.maven;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.sonatype.plexus.build.incremental.BuildContext;
import org.sonatype.plexus.build.incremental.DefaultBuildContext;
import org.symdyn.contract.ModelPart;
import org.symdyn.generator.GeneratedClass;
import org.symdyn.generator.GeneratedMethod;
import org.symdyn.generator.GenerationPipeline;
import org.symdyn.generator.KinematicsForm;
import org.symdyn.generator.GeneratorIdentity;
import org.symdyn.generator.JavaNames;
import org.symdyn.generator.emit.OperationCount;
import org.symdyn.model.Model;

/**
 * The goals {@code generate} ({@link GenerateMojo}) and {@code generate-test} ({@link GenerateTestMojo}): every
 * parameter but where the models are and where the sources go, and the run itself, described on
 * {@link GenerateMojo}.
 */
public abstract class AbstractGenerateMojo extends AbstractMojo {
    /**
     * Ant-style patterns of the model files, relative to the source directory; default {@code **}{@code /*.urdf},
     * {@code **}{@code /*.xml} and {@code **}{@code /*.mjcf} (an {@code .xml} file that is neither MJCF nor URDF is
     * skipped with a log line).
     */
    @Parameter
    List<String> includes;

    /** Ant-style patterns of files to leave out, relative to the source directory. */
    @Parameter
    List<String> excludes;

    /** The package of the generated classes. */
    @Parameter(property = "symdyn.packageName", defaultValue = "org.symdyn.generated")
    String packageName;

    /**
     * Class names that replace the derived ones (UpperCamelCase of the robot name + {@code Dynamics}), keyed by the
     * model file's path relative to the source directory: {@code <classNames><iiwa14.urdf>Iiwa</iiwa14.urdf>
     * </classNames>}. An XML element name cannot hold a '/': name a model in a subdirectory in {@link #models}.
     */
    @Parameter
    Map<String, String> classNames;

    /**
     * Settings per model: {@code <models><model><file>legged/hyq.urdf</file><className>HyQ</className>
     * <floatingBase>true</floatingBase></model></models>}; {@code file} is relative to the source directory and
     * '/'-separated, {@code className} and {@code floatingBase} are optional.
     */
    @Parameter
    List<ModelConfiguration> models;

    /**
     * Give each model's root link a 6-dof floating joint (for URDFs without a world link), unless a
     * {@code <model>} entry says otherwise.
     */
    @Parameter(property = "symdyn.floatingBase", defaultValue = "false")
    boolean floatingBase;

    /** Model warnings are errors. */
    @Parameter(property = "symdyn.strict", defaultValue = "false")
    boolean strict;

    /**
     * Add the closed form of H, C and g to each class's Javadoc (models of up to 4 dof; slower generation: Symja
     * simplifies every entry, at most 5 s each).
     */
    @Parameter(property = "symdyn.closedForm", defaultValue = "false")
    boolean closedForm;

    /**
     * Compute the sines and cosines of joint angles with {@code Math.sin} and {@code Math.cos} (Java's bits exactly)
     * instead of the default inlined {@code SinCos} steps, which are faster and within 2 ulps of them.
     */
    @Parameter(property = "symdyn.mathTrig", defaultValue = "false")
    boolean mathTrig;

    /**
     * Also generate the derivatives of the dynamics (∂τ/∂q, ∂τ/∂v, ∂v̇/∂q, ∂v̇/∂v, H⁻¹), the Coriolis matrix and the
     * inertial-parameter regressor: each class then implements {@code org.symdyn.contract.DynamicsDerivatives}.
     * Off by default: generation takes longer (measured 2026-12-05, {@code symdyn generate} pinned to one CPU, wall
     * time: ur5 1.17x, iiwa14 1.30x, panda 1.28x, hyq 1.56x, solo12 1.53x, anymal 1.59x, romeo_small 1.21x, the
     * sample quadruped 1.59x, cassie 1.48x) and the class grows accordingly.
     */
    @Parameter(property = "symdyn.derivatives", defaultValue = "false")
    boolean derivatives;

    /**
     * The parts of the contract each class carries, comma separated ({@code ModelPart}):
     * {@code dynamics} (H, C, g, ID, FD; always), {@code kinematics} (poses, velocities, accelerations, Jacobians;
     * contact needs them), {@code constraints} (φ, φ̇, G, γ and the fused evaluations every constraint set binds),
     * {@code derivatives} (as {@code <derivatives>}), {@code recursive_constraints} (the constrained dynamics of the
     * rows without H, for the solvers' recursive method). Default: {@code dynamics,kinematics,constraints}. A method
     * of a
     * part left out throws an {@code UnsupportedOperationException} naming the part.
     */
    @Parameter(property = "symdyn.parts", defaultValue = "dynamics,kinematics,constraints")
    String parts = "dynamics,kinematics,constraints";

    /**
     * The form of the kinematics ({@code KinematicsForm}): {@code by-size} (default: a straight-line method per body,
     * the fastest queries, for every model below the large-model bound), {@code per-body}, {@code compact} (the
     * kinematics from shared passes over the tree: a third of the source and half of javac's time for a 7-dof arm,
     * each kinematics query 1.4-3x slower; for builds that use the kinematics seldom) or {@code shared-passes}.
     */
    @Parameter(property = "symdyn.kinematicsForm", defaultValue = "by-size")
    String kinematicsForm = "by-size";

    /** Skip the goal; the output directory is still added as a source root (unless {@link #addSourceRoot} is off). */
    @Parameter(property = "symdyn.skip", defaultValue = "false")
    boolean skip;

    /**
     * Fail the build when the source directory does not exist or holds no model the includes select; off, a
     * warning names the directory and the run goes on (removing the sources of models that are gone).
     */
    @Parameter(property = "symdyn.failOnMissingModels", defaultValue = "false")
    boolean failOnMissingModels;

    /**
     * Add the output directory to the project's source roots (main or test, by goal), so that javac compiles the
     * generated classes; off when the build compiles or packages them another way.
     */
    @Parameter(property = "symdyn.addSourceRoot", defaultValue = "true")
    boolean addSourceRoot = true;

    /** Regenerate every model, up to date or not. */
    @Parameter(property = "symdyn.force", defaultValue = "false")
    boolean force;

    /**
     * Where the fingerprints of the models are kept: one file per output directory, shared by the executions that
     * write there.
     */
    @Parameter(defaultValue = "${project.build.directory}/symdyn-fingerprints")
    File fingerprintDirectory;

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${mojoExecution}", readonly = true)
    MojoExecution mojoExecution;

    @Component
    BuildContext buildContext;

    /** Where the models are; their paths relative to it name them in {@link #classNames} and {@link #models}. */
    abstract File sourceDirectory();

    /** Where the sources go, as {@code <package path>/<Class>.java}. */
    abstract File outputDirectory();

    /** Adds the output directory to the project's sources that this goal's phase feeds (main or test). */
    abstract void addSourceRoot(MavenProject project, String directory);

    /** The goal's name: its executions in the POM are the ones whose records in the output directory are kept. */
    abstract String goal();

    /** The switch that skips this run ({@code symdyn.skip}), or null to run. */
    String skippedBy() {
        return skip ? "symdyn.skip" : null;
    }

    /** Why a run has no model: the source directory is missing, or the patterns select nothing in it. */
    private String noModels(File source) {
        if (!source.exists()) {
            return "symdyn: no model: the source directory " + source + " does not exist";
        }
        return "symdyn: no model in " + source + " (includes " + (includes == null || includes.isEmpty()
                ? Arrays.asList(ModelFiles.DEFAULT_INCLUDES) : includes) + (excludes == null || excludes.isEmpty()
                ? "" : ", excludes " + excludes) + ")";
    }

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (project != null && "pom".equals(project.getPackaging())) {
            getLog().info("symdyn: skipped: a project of packaging pom compiles no sources");
            return;
        }
        File out = outputDirectory().getAbsoluteFile();
        if (project != null && addSourceRoot) {
            addSourceRoot(project, out.getPath());
        }
        String skipped = skippedBy();
        if (skipped != null) {
            getLog().info("symdyn: skipped (" + skipped + ")");
            return;
        }
        String packageProblem = JavaNames.packageNameProblem(packageName);
        if (packageProblem != null) {
            throw new MojoExecutionException("symdyn: packageName '" + packageName + "' " + packageProblem);
        }
        File source = sourceDirectory().getAbsoluteFile();
        if (buildContext.isIncremental() && !force && !buildContext.hasDelta(source)) {
            getLog().debug("symdyn: no change in " + source);
            return;
        }

        List<ModelFile> inputs = ModelFiles.of(source, buildContext, includes, excludes, models, classNames,
                floatingBase, getLog()::info);
        if (inputs.isEmpty()) {
            String missing = noModels(source);
            if (failOnMissingModels) {
                throw new MojoFailureException(missing);
            }
            getLog().warn(missing);
        }
        GeneratorIdentity generator;
        try {
            generator = GeneratorIdentity.current();
        } catch (IOException e) {
            throw new MojoExecutionException("symdyn: cannot identify the generator: " + e.getMessage(), e);
        }
        String execution = executionId();
        Set<String> live = liveExecutions(execution);
        FingerprintStore store = FingerprintStore.load(FingerprintStore.fileFor(fingerprintDirectory, out));
        for (String damage : store.damage()) {
            getLog().warn("symdyn: fingerprints " + store.file() + ": " + damage + "; the models concerned are"
                    + " regenerated");
        }
        boolean forgotten = !store.damage().isEmpty();
        OwnedOutputs owned = new OwnedOutputs(out.toPath());
        getLog().info("symdyn: " + inputs.size() + " model" + (inputs.size() == 1 ? "" : "s") + " in " + source
                + ", package " + packageName + ", execution " + execution + ", generator " + generator);
        if (execution.equals("default-cli") && live.size() > 1) {
            getLog().warn("symdyn: run from the command line (execution default-cli) with the plugin-level"
                    + " configuration only; the executions of the POM (" + String.join(", ", new TreeSet<>(live)
                            .stream().filter(id -> !id.equals("default-cli")).toList()) + ") remove its classes at"
                    + " their next run; to run one of them, call symdyn:" + goal() + "@<id>");
        }

        Set<ModelPart> carried = parsedParts();
        KinematicsForm kinematics = parsedKinematicsForm();
        // <derivatives> or derivatives among the <parts>: the same class, so the same fingerprint
        String optionsTail = FingerprintStore.partsOption(carried) + FingerprintStore.kinematicsOption(kinematics);
        boolean withDerivatives = derivatives || carried.contains(ModelPart.DERIVATIVES);

        // 1. which models are out of date, and why
        List<ModelFile> stale = new ArrayList<>();
        for (ModelFile in : inputs) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(in.file.toPath());
            } catch (IOException e) {
                throw new MojoExecutionException(in.file + ":[0,0] cannot read file: " + e, e);
            }
            in.modelSha256 = GeneratorIdentity.Sha256.of(bytes);
            in.options = FingerprintStore.options(packageName, in.classOverride, in.floating, strict, closedForm,
                    mathTrig, withDerivatives) + optionsTail;
            FingerprintStore.Entry entry = store.get(execution, in.name);
            in.reason = staleness(entry, in, generator, owned, forgotten);
            if (in.reason == null) {
                in.className = entry.className();
            } else {
                stale.add(in);
            }
        }

        // 2. the shared pipeline: read every out-of-date model, check the class names (also against the other
        // executions' sources in this directory), generate, compile-check, write all or nothing
        List<GenerationPipeline.ModelInput> modelInputs = new ArrayList<>();
        Map<GenerationPipeline.ModelInput, ModelFile> byModelInput = new HashMap<>();
        for (ModelFile in : inputs) {
            GenerationPipeline.ModelInput mi = in.reason == null
                    ? GenerationPipeline.ModelInput.upToDate(in.file.toPath(), in.file.getPath(), in.className)
                    : GenerationPipeline.ModelInput.of(in.file.toPath(), in.file.getPath(), in.classOverride,
                            in.floating);
            modelInputs.add(mi);
            byModelInput.put(mi, in);
        }
        for (ModelFile in : stale) {
            buildContext.removeMessages(in.file);
        }
        GenerationPipeline pipeline = GenerationPipeline.builder()
                .packageName(packageName)
                .outputDirectory(out.toPath())
                .strict(strict)
                .closedForm(closedForm)
                .mathTrig(mathTrig)
                .derivatives(derivatives)
                .parts(carried)
                .kinematics(kinematics)
                .clashHint("name one of them in classNames or models")
                .nameHint("name the class in classNames or models")
                .check(classes -> executionClashes(store, execution, live, classes, out))
                .writer(this::write)
                .progress(new LoggedProgress(getLog(), mi -> byModelInput.get(mi).name,
                        w -> warn(Problem.of(w.input().file().toFile(), w.diagnostic())), packageName))
                .build();
        GenerationPipeline.Result result;
        try {
            result = pipeline.run(modelInputs);
        } catch (GenerationPipeline.OutputException e) {
            throw new MojoExecutionException("symdyn: " + e.file() + ": " + e.reason(), e);
        } catch (IllegalStateException e) {
            throw new MojoExecutionException("symdyn: " + e.getMessage(), e);
        }
        fail(result.problems().stream().map(p -> Problem.of(p.input().file().toFile(), p.diagnostic())).toList());

        // 3. the fingerprints of what was generated, then removals
        for (GenerationPipeline.Output o : result.outputs()) {
            byModelInput.get(o.input()).className = o.generated().className();
        }
        Map<String, String> claimed = new HashMap<>(); // lower-case relative output -> who generates it
        for (ModelFile in : inputs) {
            claimed.put(relativeOutput(in.className).toLowerCase(Locale.ROOT), in.name);
        }
        for (FingerprintStore.Entry e : store.entries()) {
            if (!e.execution().equals(execution) && live.contains(e.execution())) {
                claimed.putIfAbsent(e.output().toLowerCase(Locale.ROOT), e.model() + " of execution " + e.execution());
            }
        }
        int rewritten = 0;
        for (GenerationPipeline.Output o : result.outputs()) {
            ModelFile in = byModelInput.get(o.input());
            rewritten += o.written() ? 1 : 0;
            FingerprintStore.Entry old = store.get(execution, in.name);
            String note = "";
            if (old != null && !old.output().equalsIgnoreCase(relativeOutput(in.className))) {
                note = "; " + removeOld(owned, old, claimed, "its previous class " + old.className());
            }
            store.put(new FingerprintStore.Entry(execution, in.name, in.modelSha256, generator.codeSha256(),
                    in.options, in.className, relativeOutput(in.className), GeneratorIdentity.Sha256.of(o.source())));
            getLog().info(summary(in, o) + note);
        }
        for (ModelFile in : inputs) {
            if (!stale.contains(in)) {
                getLog().info(in.name + ": up to date (" + qualified(in.className) + ")");
            }
        }
        Set<String> current = new HashSet<>();
        inputs.forEach(in -> current.add(in.name));
        int removed = 0;
        for (FingerprintStore.Entry old : store.entries()) {
            boolean ours = old.execution().equals(execution);
            if (ours && current.contains(old.model()) || !ours && live.contains(old.execution())) {
                continue;
            }
            String what = removeOld(owned, old, claimed, ours ? "its class " + old.className()
                    : "the class " + old.className() + " of execution '" + old.execution() + "', which is no longer"
                    + " configured");
            store.remove(old);
            removed++;
            getLog().info(old.model() + ": removed" + (ours ? "" : " (execution '" + old.execution() + "')")
                    + "; " + what);
        }
        try {
            store.save();
        } catch (IOException e) {
            throw new MojoExecutionException("symdyn: cannot write the fingerprints " + store.file() + ": " + e, e);
        }
        getLog().info("symdyn: " + stale.size() + " regenerated (" + rewritten + " written), "
                + (inputs.size() - stale.size()) + " up to date, " + removed + " removed");
    }

    /**
     * Why a model must be generated, or null if it is up to date: its record, model bytes, options and generator
     * are the recorded ones and its source is there with the recorded bytes.
     */
    private String staleness(FingerprintStore.Entry entry, ModelFile in, GeneratorIdentity generator,
            OwnedOutputs owned, boolean forgotten) {
        if (force) {
            return "symdyn.force is set";
        }
        if (entry == null) {
            return forgotten ? "its fingerprint was unreadable" : "it was not generated before";
        }
        if (!entry.modelSha256().equals(in.modelSha256)) {
            return "the model changed";
        }
        if (!entry.options().equals(in.options)) {
            return "options changed: " + String.join(", ", FingerprintStore.changedOptions(entry.options(),
                    in.options));
        }
        if (!entry.generator().equals(generator.codeSha256())) {
            return "the generator changed";
        }
        Path file = owned.resolve(entry.output());
        if (file == null || !entry.output().equals(relativeOutput(entry.className())) || !Files.isRegularFile(file)) {
            return "its source is missing";
        }
        try {
            if (!GeneratorIdentity.Sha256.of(Files.readAllBytes(file)).equals(entry.outputSha256())) {
                return "its source was edited";
            }
        } catch (IOException e) {
            return "its source cannot be read";
        }
        return null;
    }

    /** Deletes a recorded output no longer generated, unless it is claimed or changed; says what happened. */
    private String removeOld(OwnedOutputs owned, FingerprintStore.Entry old, Map<String, String> claimed,
            String what) throws MojoExecutionException {
        String by = claimed.get(old.output().toLowerCase(Locale.ROOT));
        if (by != null) {
            return "kept " + what + ": " + old.output() + " is now generated from " + by;
        }
        OwnedOutputs.Outcome outcome;
        try {
            outcome = owned.delete(old.output(), old.outputSha256());
        } catch (IOException e) {
            throw new MojoExecutionException("symdyn: cannot delete " + old.output() + " in " + outputDirectory()
                    + ": " + e, e);
        }
        Path file = owned.resolve(old.output());
        switch (outcome) {
            case DELETED:
                buildContext.refresh(file.toFile());
                return "deleted " + what + " (" + file + ")";
            case GONE:
                return what + " (" + old.output() + ") was already gone";
            case KEPT_CHANGED:
                getLog().warn("symdyn: kept " + file + ": it changed since symdyn wrote it (delete it if it is not"
                        + " yours)");
                return "kept " + what + " (" + file + "): edited since generated";
            default:
                return "not deleted: " + old.output() + " is not under " + outputDirectory();
        }
    }

    /**
     * The executions of this goal that the project configures (their records in a shared output directory are
     * kept), and this one. An execution recorded in the store but in neither was renamed or removed, or was a
     * command-line run ({@code default-cli}): its outputs are cleaned up.
     */
    private Set<String> liveExecutions(String execution) {
        Set<String> live = new TreeSet<>();
        live.add(execution);
        if (project == null) {
            return live;
        }
        String artifactId = mojoExecution != null && mojoExecution.getArtifactId() != null
                ? mojoExecution.getArtifactId() : "symdyn-maven-plugin";
        for (Plugin p : project.getBuildPlugins()) {
            if (!artifactId.equals(p.getArtifactId())) {
                continue;
            }
            for (PluginExecution e : p.getExecutions()) {
                if (e.getGoals().contains(goal())) {
                    live.add(sanitise(e.getId()));
                }
            }
        }
        return live;
    }

    /** Another execution's source in this output directory that a class of this one would overwrite. */
    private List<GenerationPipeline.Problem> executionClashes(FingerprintStore store, String execution,
            Set<String> live, Map<GenerationPipeline.ModelInput, String> classes, File out) {
        Map<String, GenerationPipeline.ModelInput> wanted = new LinkedHashMap<>();
        Map<File, GenerationPipeline.ModelInput> byFile = new HashMap<>();
        classes.forEach((input, className) -> {
            wanted.putIfAbsent(relativeOutput(className), input);
            byFile.put(input.file().toFile(), input);
        });
        Map<String, File> files = new LinkedHashMap<>();
        wanted.forEach((output, input) -> files.put(output, input.file().toFile()));
        return ExecutionClashes.find(store, execution, live, files, out).stream()
                .map(p -> GenerationPipeline.Problem.of(byFile.get(p.file()), p.message()))
                .toList();
    }

    private void fail(List<Problem> problems) throws MojoFailureException {
        if (problems.isEmpty()) {
            return;
        }
        StringBuilder msg = new StringBuilder();
        Set<File> files = new TreeSet<>();
        for (Problem p : problems) {
            getLog().error(p.toString());
            if (reportsToIde()) {
                buildContext.addMessage(p.file(), p.line(), p.column(), p.message(), BuildContext.SEVERITY_ERROR,
                        null);
            }
            msg.append('\n').append(p);
            files.add(p.file());
        }
        throw new MojoFailureException("symdyn: " + files.size() + " bad model" + (files.size() == 1 ? "" : "s")
                + ", nothing generated:" + msg);
    }

    private void warn(Problem p) {
        getLog().warn(p.toString());
        if (reportsToIde()) {
            buildContext.addMessage(p.file(), p.line(), p.column(), p.message(), BuildContext.SEVERITY_WARNING, null);
        }
    }

    /**
     * Markers for the IDE. On the command line the context is plexus-build-api's {@link DefaultBuildContext},
     * whose addMessage only logs, which would print each problem twice.
     */
    private boolean reportsToIde() {
        return !(buildContext instanceof DefaultBuildContext);
    }

    /** Writes {@code bytes} through the build context unless the file already holds them; true if written. */
    private boolean write(Path file, byte[] bytes) throws IOException {
        if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), bytes)) {
            return false;
        }
        try (OutputStream o = buildContext.newFileOutputStream(file.toFile())) {
            o.write(bytes);
        }
        buildContext.refresh(file.toFile());
        return true;
    }

    /** The source of a class, relative to the output directory, '/'-separated. */
    private String relativeOutput(String className) {
        return packageName.replace('.', '/') + "/" + className + ".java";
    }

    private String qualified(String className) {
        return packageName + "." + className;
    }

    private String executionId() {
        return sanitise(mojoExecution == null ? null : mojoExecution.getExecutionId());
    }

    private static String sanitise(String id) {
        return id == null || id.isBlank() ? "default" : id.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /**
     * {@code pendulum.urdf -> org.example.PendulumDynamics: 1 dof (nq 1), 0 constraints (0 rows), generated in 412
     * ms + compile check 380 ms; mass_matrix 2 flops (1 mul, 1 add, 0 trig), forward_dynamics ...}.
     */
    private String summary(ModelFile in, GenerationPipeline.Output o) {
        GeneratedClass g = o.generated();
        Long total = g.generationMillis().get("total");
        Model m = o.model();
        return in.name + " -> " + g.qualifiedName() + ": " + g.nv() + " dof (nq " + g.nq() + "), "
                + m.constraints().size() + " constraint" + (m.constraints().size() == 1 ? "" : "s") + " ("
                + m.constraintRowCount() + " rows), generated in " + (total == null ? "?" : total)
                + " ms + compile check " + o.compileMillis() + " ms; " + ops(g, GeneratedMethod.MASS_MATRIX) + ", "
                + ops(g, GeneratedMethod.FORWARD_DYNAMICS) + "; regenerated because " + in.reason
                + (o.written() ? "" : "; source unchanged, not rewritten");
    }

    private static String ops(GeneratedClass g, GeneratedMethod method) {
        OperationCount c = g.operations().get(method);
        return method.key() + " " + (c == null ? "?" : c.flops() + " flops (" + c + ")");
    }

    /** The form of {@link #kinematicsForm}; unset, {@link KinematicsForm#BY_SIZE}. */
    private KinematicsForm parsedKinematicsForm() throws MojoExecutionException {
        try {
            return kinematicsForm == null ? KinematicsForm.BY_SIZE : KinematicsForm.ofOptionName(kinematicsForm);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("<kinematicsForm>: " + e.getMessage());
        }
    }

    /** The parts of {@link #parts} (dynamics among them); unset, {@link ModelPart#defaults()}. */
    private Set<ModelPart> parsedParts() throws MojoExecutionException {
        try {
            return parts == null ? ModelPart.defaults() : ModelPart.ofOptionList(parts);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("<parts>: " + e.getMessage());
        }
    }
}
