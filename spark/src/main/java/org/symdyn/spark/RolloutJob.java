package org.symdyn.spark;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.symdyn.constraints.GenericModel;
import org.symdyn.contract.ModelFunctions;
import org.symdyn.io.ModelFileReader;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.symdyn.rollout.Controller;
import org.symdyn.rollout.RolloutWorker;
import org.symdyn.rollout.SystemFactory;

/**
 * What every Spark task needs to run its partition's rollouts, shipped to the executors with the task (hence
 * {@link Serializable}, and small: names and text, never a model instance):
 * <ul>
 * <li>the model instance each task's {@link RolloutWorker} owns: a generated class by its name (it must have a
 * public no-arg constructor and be in the job's jar), or, without one, the generic interpreter
 * ({@link GenericModel}) of the model file;</li>
 * <li>the model file, as its text and its file name (the name's extension picks the format, as for
 * {@link ModelFileReader#formatOf}); read once per task on the executor ({@link ModelFileReader}, meshes skipped:
 * the text is one self-contained file; a file with collision meshes is refused, since its rollouts would run
 * without them, unless the job says it knows ({@link #withoutCollisionMeshes()});</li>
 * <li>how each rollout's system is built from that {@link Model} ({@link Systems}; default
 * {@link SystemFactory#of}, the system {@code symdyn simulate} runs);</li>
 * <li>each rollout's controller ({@link Controllers}; default none), and whether an unconverged contact solve fails
 * its rollout.</li>
 * </ul>
 * {@link SparkRollouts#run} {@link #check checks} the job on the driver first (the model file read, the instance
 * made), so that a bad file or class fails there, once, with its problems listed, instead of in every task.
 *
 * <pre>
 *   RolloutJob job = RolloutJob.generated("org.example.QuadrupedDynamics", "quadruped.urdf", urdfText)
 *           .withFloatingBase(true)
 *           .withController((spec, system) -&gt; new MyController(spec))   // a serializable lambda
 *           .withFailOnUnconverged(true);
 * </pre>
 *
 * Immutable: each {@code with} gives a new job.
 */
public final class RolloutJob implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * Builds the {@link SystemFactory} of a task from the model file's {@link Model} (null when the job has no model
     * file). Serializable so that it travels with the job: a lambda or method reference assigned to this type is.
     */
    @FunctionalInterface
    public interface Systems extends Serializable {
        SystemFactory create(Model model);
    }

    /** A {@link Controller.Factory} that travels with the job (a lambda assigned to this type is serializable). */
    @FunctionalInterface
    public interface Controllers extends Controller.Factory, Serializable {
    }

    private static final Systems MODEL_FILE_SYSTEMS = model -> {
        if (model == null) {
            throw new IllegalStateException("SystemFactory.of needs the model file; give the job its text or Systems");
        }
        return SystemFactory.of(model);
    };

    private final String modelClass;
    private final String modelFileName;
    private final String modelText;
    private final boolean floatingBase;
    private final boolean ignoreTendons;
    private final Systems systems;
    private final Controllers controllers;
    private final boolean failOnUnconverged;
    private final boolean leaveOutMeshes;

    private RolloutJob(String modelClass, String modelFileName, String modelText, boolean floatingBase,
            boolean ignoreTendons, Systems systems, Controllers controllers, boolean failOnUnconverged,
            boolean leaveOutMeshes) {
        this.modelClass = modelClass;
        this.modelFileName = modelFileName;
        this.modelText = modelText;
        this.floatingBase = floatingBase;
        this.ignoreTendons = ignoreTendons;
        this.systems = systems;
        this.controllers = controllers;
        this.failOnUnconverged = failOnUnconverged;
        this.leaveOutMeshes = leaveOutMeshes;
    }

    /**
     * Rollouts on the generic interpreter of a model file, with the file's own system ({@link SystemFactory#of}).
     *
     * @param fileName the file's name (its extension picks the format: {@code .urdf}, {@code .xml}, {@code .sdf},
     *                 ...; a folder part is ignored)
     * @param text     the file's text
     */
    public static RolloutJob modelFile(String fileName, String text) {
        return new RolloutJob(null, fileNameOf(fileName), Objects.requireNonNull(text, "text"), false, false,
                MODEL_FILE_SYSTEMS, null, false, false);
    }

    /**
     * Rollouts on a generated class (one instance per task, from its no-arg constructor), with the model file's own
     * system ({@link SystemFactory#of}) built from {@code fileName}/{@code text} (the file the class was generated
     * from).
     */
    public static RolloutJob generated(String className, String fileName, String text) {
        return new RolloutJob(requireName(className), fileNameOf(fileName), Objects.requireNonNull(text, "text"),
                false, false, MODEL_FILE_SYSTEMS, null, false, false);
    }

    /**
     * Rollouts on a generated class whose systems come from {@code systems} alone (called with a null model: there
     * is no model file).
     */
    public static RolloutJob generated(String className, Systems systems) {
        return new RolloutJob(requireName(className), null, null, false, false, Objects.requireNonNull(systems,
                "systems"), null, false, false);
    }

    /**
     * This job with the model file read with a floating root link (URDF; for other formats the file must already
     * float, see {@link ModelFileReader.Options#floatingBase()}).
     */
    public RolloutJob withFloatingBase(boolean floating) {
        return new RolloutJob(modelClass, modelFileName, modelText, floating, ignoreTendons, systems, controllers,
                failOnUnconverged, leaveOutMeshes);
    }

    /** This job with MJCF tendons that couple joints left out ({@link ModelFileReader.Options#ignoreTendons()}). */
    public RolloutJob withIgnoreTendons(boolean ignore) {
        return new RolloutJob(modelClass, modelFileName, modelText, floatingBase, ignore, systems, controllers,
                failOnUnconverged, leaveOutMeshes);
    }

    /** This job with each task's systems from {@code factory} (given the model file's {@link Model}, or null). */
    public RolloutJob withSystems(Systems factory) {
        return new RolloutJob(modelClass, modelFileName, modelText, floatingBase, ignoreTendons,
                Objects.requireNonNull(factory, "factory"), controllers, failOnUnconverged, leaveOutMeshes);
    }

    /** This job with each rollout's controller from {@code factory} (default: none, {@link Controller#NONE}). */
    public RolloutJob withController(Controllers factory) {
        return new RolloutJob(modelClass, modelFileName, modelText, floatingBase, ignoreTendons, systems,
                Objects.requireNonNull(factory, "factory"), failOnUnconverged, leaveOutMeshes);
    }

    /**
     * This job with an unconverged contact solve failing its rollout (kind {@code UNCONVERGED}) or not (default:
     * not; see {@link org.symdyn.rollout.Rollouts.Builder#failOnUnconverged}).
     */
    public RolloutJob withFailOnUnconverged(boolean fail) {
        return new RolloutJob(modelClass, modelFileName, modelText, floatingBase, ignoreTendons, systems,
                controllers, fail, leaveOutMeshes);
    }

    /**
     * This job with the model file's collision meshes left out knowingly: for rollouts whose contacts do not involve
     * them (a job without contact, or with meshes only where nothing reaches), which a job otherwise refuses, since
     * its text cannot carry them ({@link #newWorker}). The rollouts then run as a local run reading the file without
     * its meshes would, not as one with them.
     */
    public RolloutJob withoutCollisionMeshes() {
        return new RolloutJob(modelClass, modelFileName, modelText, floatingBase, ignoreTendons, systems,
                controllers, failOnUnconverged, true);
    }

    /** Whether the job runs without the model file's collision meshes instead of refusing them. */
    public boolean leavesOutCollisionMeshes() {
        return leaveOutMeshes;
    }

    /** The generated class's name, or null for the interpreter. */
    public String modelClass() {
        return modelClass;
    }

    /** The model file's name, or null. */
    public String modelFileName() {
        return modelFileName;
    }

    /** Whether an unconverged contact solve fails its rollout. */
    public boolean failOnUnconverged() {
        return failOnUnconverged;
    }

    /**
     * A worker for one task: reads the model file (once), makes the model instance and the system factory. Runs on
     * the executor.
     *
     * @throws IllegalStateException if the model file cannot be read or the class cannot be instantiated
     */
    RolloutWorker newWorker() {
        Model model = modelText == null ? null : readModel();
        if (model != null && !leaveOutMeshes && !model.scene().leftOutCollisionMeshes().isEmpty()) {
            // the file's text travels alone: its meshes cannot, and the rollouts would run without those shapes
            List<SourceLocation> meshes = model.scene().leftOutCollisionMeshes();
            SourceLocation first = meshes.get(0);
            throw new IllegalStateException("the job's model file " + modelFileName + " has " + meshes.size()
                    + " collision mesh" + (meshes.size() == 1 ? "" : "es") + " (the first at " + modelFileName + ":["
                    + first.line() + "," + first.column() + "]), which a Spark job cannot carry (it ships the"
                    + " file's text alone): its rollouts would run without them, and their contacts differ from a"
                    + " local run. Give those shapes as primitives (box, sphere, cylinder, capsule), run the"
                    + " rollouts locally (org.symdyn.rollout.Rollouts, symdyn rollouts), or, where no contact"
                    + " involves them, leave them out knowingly (RolloutJob.withoutCollisionMeshes())");
        }
        ModelFunctions instance = modelClass == null ? new GenericModel(model) : instantiate();
        if (model != null && (instance.nq() != model.nq() || instance.nv() != model.nv())) {
            throw new IllegalStateException("the model class " + modelClass + " has nq = " + instance.nq() + ", nv = "
                    + instance.nv() + " but the model file " + modelFileName + " nq = " + model.nq() + ", nv = "
                    + model.nv() + ": not the file it was generated from (or read without its floating base)");
        }
        SystemFactory factory;
        try {
            factory = systems.create(model);
        } catch (RuntimeException e) {
            throw new IllegalStateException("the job's Systems threw " + e, e);
        }
        if (factory == null) {
            throw new IllegalStateException("the job's Systems gave null");
        }
        Controller.Factory c = controllers == null ? (spec, system) -> Controller.NONE : controllers;
        return new RolloutWorker(instance, factory, c, failOnUnconverged);
    }

    /** The model file's {@link Model}, read from its text through a file of its name in a temporary folder. */
    Model readModel() {
        Path directory = null;
        Path file = null;
        try {
            directory = Files.createTempDirectory("symdyn-spark-model");
            file = directory.resolve(modelFileName);
            Files.writeString(file, modelText, StandardCharsets.UTF_8);
            return ModelFileReader.read(file, new ModelFileReader.Options(floatingBase, false, ignoreTendons));
        } catch (ModelException e) {
            // Located at the job's file name, not at the temporary copy the user never named.
            String copy = file.toString();
            String problems = e.diagnostics().stream().map(d -> new Diagnostic(d.location().path().equals(copy)
                    ? new SourceLocation(modelFileName, d.location().line(), d.location().column()) : d.location(),
                    d.severity(), d.message().replace(copy, modelFileName)).toString())
                    .collect(Collectors.joining("\n"));
            throw new IllegalStateException("the job's model file " + modelFileName + " cannot be read:\n"
                    + problems, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the job's model file " + modelFileName
                    + " to a temporary folder", e);
        } finally {
            try {
                if (file != null) {
                    Files.deleteIfExists(file);
                }
                if (directory != null) {
                    Files.deleteIfExists(directory);
                }
            } catch (IOException e) {
                // a temporary file left behind is harmless; the read's own outcome stands
            }
        }
    }

    private ModelFunctions instantiate() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = RolloutJob.class.getClassLoader();
        }
        Class<?> type;
        try {
            // a task's context class loader is the one that has the job's jar (spark-submit's application jar)
            type = Class.forName(modelClass, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the model class " + modelClass + " is not on the class path; put the"
                    + " generated class in the job's jar", e);
        }
        if (!ModelFunctions.class.isAssignableFrom(type)) {
            throw new IllegalStateException("the model class " + modelClass + " is not a "
                    + ModelFunctions.class.getName() + " (a class SymDyn generated)");
        }
        try {
            return (ModelFunctions) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the model class " + modelClass + " has no public no-arg constructor"
                    + " that works: " + e, e);
        }
    }

    /**
     * Checks the job by making one worker here (reads the model file, makes the model instance and the systems,
     * compares the instance's nq and nv with the file's), so that a bad job fails on the driver, once, instead of in
     * every task. {@link SparkRollouts#run} calls it.
     *
     * @return this job
     * @throws IllegalArgumentException saying what is wrong (the model file's problems, each located)
     */
    public RolloutJob check() {
        try {
            newWorker();
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return this;
    }

    private static String fileNameOf(String path) {
        Path name = Path.of(requireName(path)).getFileName();
        if (name == null) {
            throw new IllegalArgumentException("no file name in " + path);
        }
        return name.toString();
    }

    private static String requireName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a blank name");
        }
        return name;
    }

    @Override
    public String toString() {
        return "RolloutJob{" + (modelClass == null ? "interpreter" : modelClass)
                + (modelFileName == null ? "" : ", model file " + modelFileName) + (floatingBase ? ", floating" : "")
                + (controllers == null ? "" : ", controller") + (failOnUnconverged ? ", failOnUnconverged" : "")
                + "}";
    }
}
