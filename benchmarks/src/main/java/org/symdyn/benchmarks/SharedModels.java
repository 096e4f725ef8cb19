package org.symdyn.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Locates the robot models in {@code shared/models} beside the checkout: the system property
 * {@code symdyn.shared} (the {@code shared} folder itself) if set, otherwise the first {@code shared/models}
 * found walking up from the working directory.
 */
final class SharedModels {
    static final String PROPERTY = "symdyn.shared";

    private SharedModels() {
    }

    /** The {@code shared/models} folder; throws {@link MissingInputException} if it cannot be found. */
    static Path modelsDirectory() {
        String prop = System.getProperty(PROPERTY);
        if (prop != null && !prop.isBlank()) {
            Path models = Paths.get(prop).toAbsolutePath().normalize().resolve("models");
            if (!Files.isDirectory(models)) {
                throw new MissingInputException("-D" + PROPERTY + "=" + prop + " is set, but " + models
                        + " is not a directory (it must name the shared folder that contains models/)");
            }
            return models;
        }
        Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path models = dir.resolve("shared").resolve("models");
            if (Files.isDirectory(models)) {
                return models;
            }
        }
        throw new MissingInputException("cannot find shared/models: no folder shared/models in " + start
                + " or any of its parents. Run from the repository root with ../shared beside the checkout,"
                + " or pass -D" + PROPERTY + "=/path/to/shared");
    }

    /** The URDF file of {@code name} (without the {@code .urdf} extension); {@link MissingInputException} if absent. */
    static Path urdf(String name) {
        Path dir = modelsDirectory();
        Path file = dir.resolve(name + ".urdf");
        if (!Files.isRegularFile(file)) {
            throw new MissingInputException("model file not found: " + file);
        }
        return file;
    }
}
