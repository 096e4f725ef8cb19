package org.symdyn.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.Model;
import org.symdyn.model.ModelException;
import org.symdyn.model.urdf.UrdfReader;

/** Reads the model file named on the command line, turning every problem into {@code path:[line,col]} lines. */
final class ModelLoader {
    private ModelLoader() {
    }

    /**
     * Reads a URDF model.
     *
     * @param file     the model file, named in messages as given
     * @param floating give the root link a floating joint to the world
     * @param strict   make warnings errors
     * @throws CliException the reader's diagnostics, one per line (exit code 2)
     */
    static Model load(Path file, boolean floating, boolean strict) throws CliException {
        if (!Files.exists(file)) {
            throw CliException.badInput(file + ":[0,0] cannot read file: no such file");
        }
        if (Files.isDirectory(file)) {
            throw CliException.badInput(file + ":[0,0] cannot read file: it is a directory");
        }
        try {
            return UrdfReader.read(file, new UrdfReader.Options(floating, strict));
        } catch (ModelException e) {
            List<String> lines = e.diagnostics().stream().map(Diagnostic::toString).toList();
            throw CliException.badInput(lines.isEmpty() ? List.of(file + ":[0,0] " + e.getMessage()) : lines);
        }
    }
}
