package org.symdyn.maven;

import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.maven.plugin.logging.Log;
import org.symdyn.generator.GenerationPipeline.ModelInput;
import org.symdyn.generator.GenerationPipeline.Problem;
import org.symdyn.generator.GenerationProgress;

/**
 * The plugin's view of a generation run as it goes, in Maven's log: the start of each model's derivation (the long
 * stage) at info, the other starts at debug, the end of every stage with its duration at info
 * ({@code symdyn: a.urdf: derived and emitted in 5.2 s}), and each model warning as soon as its model is read.
 */
final class LoggedProgress implements GenerationProgress {
    private final Log log;
    private final Function<ModelInput, String> names;
    private final Consumer<Problem> warnings;
    private final String packageName;

    /**
     * @param names       how the log names a model (relative to its source directory, as the plugin's other lines)
     * @param warnings    how a warning is reported (the log and the IDE's markers)
     * @param packageName the package of the generated classes, to name them qualified
     */
    LoggedProgress(Log log, Function<ModelInput, String> names, Consumer<Problem> warnings, String packageName) {
        this.log = log;
        this.names = names;
        this.warnings = warnings;
        this.packageName = packageName;
    }

    @Override
    public void stageStarted(ModelInput input, Stage stage, String className) {
        String line = "symdyn: " + names.apply(input) + ": " + stage.doing()
                + (className == null ? "" : " " + packageName + "." + className) + " ...";
        if (stage == Stage.DERIVE) {
            log.info(line);
        } else {
            log.debug(line);
        }
    }

    @Override
    public void stageEnded(ModelInput input, Stage stage, long millis) {
        log.info("symdyn: " + names.apply(input) + ": " + stage.done() + " in " + GenerationProgress.duration(millis));
    }

    @Override
    public void warning(Problem warning) {
        warnings.accept(warning);
    }
}
