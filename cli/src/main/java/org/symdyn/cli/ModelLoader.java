package org.symdyn.cli;

import java.nio.file.Path;
import java.util.List;
import org.symdyn.generator.GenerationPipeline;
import org.symdyn.io.ModelFileReader;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;

/**
 * Reads the model file named on the command line as the generation pipeline reads its models, turning every problem
 * into {@code path:[line,col]} lines.
 */
final class ModelLoader {
    private ModelLoader() {
    }

    /**
     * Reads a model file, URDF or MJCF ({@link GenerationPipeline#readModel}), without ignoring tendons.
     *
     * @param file     the model file, named in messages as given
     * @param floating give the root link a floating joint to the world
     * @param strict   make warnings errors
     * @throws CliException the reader's diagnostics, one per line (exit code 2)
     */
    static Model load(Path file, boolean floating, boolean strict) throws CliException {
        return load(file, new ModelFileReader.Options(floating, strict, false));
    }

    /**
     * Reads a model file, URDF or MJCF ({@link GenerationPipeline#readModel}), with all the readers' options.
     *
     * @throws CliException the reader's diagnostics, one per line (exit code 2)
     */
    static Model load(Path file, ModelFileReader.Options options) throws CliException {
        try {
            return GenerationPipeline.readModel(file, options);
        } catch (ModelException e) {
            List<String> lines = e.diagnostics().stream().map(Diagnostic::toString).toList();
            throw CliException.badInput(lines.isEmpty() ? List.of(file + ":[0,0] " + e.getMessage()) : lines);
        }
    }
}
