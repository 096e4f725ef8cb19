package org.symdyn.generator;

import org.symdyn.generator.GenerationPipeline.ModelInput;
import org.symdyn.generator.GenerationPipeline.Problem;

/**
 * Told by a {@link GenerationPipeline} run what it is doing while it does it, so that a caller can show progress
 * (the command line on standard error, the Maven plugin in its log): each model's stages as they start and end,
 * with their durations, and each model warning as soon as the model is read (not held back to the end of the run).
 *
 * <p>Calls come on the thread that runs the pipeline, in order: for each model {@link Stage#READ} first (all models
 * are read before any is derived), then, for each model when every model is good, {@link Stage#DERIVE} and
 * {@link Stage#COMPILE_CHECK}. A stage that fails (a problem of the model, or a generator bug thrown) is started but
 * not ended. Every method does nothing by default.
 */
public interface GenerationProgress {
    /** A listener that ignores everything. */
    GenerationProgress NONE = new GenerationProgress() {
    };

    /** The stages of one model's generation. */
    enum Stage {
        /** Reading the model file and checking that the generator can handle it. */
        READ("reading", "read"),
        /** Deriving the dynamics symbolically and emitting the Java source. */
        DERIVE("deriving and emitting", "derived and emitted"),
        /** Compiling the source in process (the check that it compiles and that no method is too large). */
        COMPILE_CHECK("compile-checking", "compile-checked");

        private final String doing;
        private final String done;

        Stage(String doing, String done) {
            this.doing = doing;
            this.done = done;
        }

        /** The stage while it runs, as a progress line says it ({@code "deriving and emitting"}). */
        public String doing() {
            return doing;
        }

        /** The stage once ended, as a progress line says it ({@code "derived and emitted"}). */
        public String done() {
            return done;
        }
    }

    /**
     * A stage of a model starts.
     *
     * @param input     the model
     * @param className the class it is generated as; null while it is not known (before the model is read)
     */
    default void stageStarted(ModelInput input, Stage stage, String className) {
    }

    /** A stage of a model ended, after {@code millis} milliseconds of wall time. */
    default void stageEnded(ModelInput input, Stage stage, long millis) {
    }

    /** A model warning, given as soon as its model is read (it is also in {@link GenerationPipeline.Result}). */
    default void warning(Problem warning) {
    }

    /**
     * A duration as progress lines write it: whole milliseconds below one second ({@code "412 ms"}), else seconds
     * with one decimal ({@code "5.2 s"}).
     */
    static String duration(long millis) {
        return millis < 1000 ? millis + " ms" : String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
