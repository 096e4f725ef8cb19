package org.symdyn.samples;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The team's shared folder of public robot models ({@code models/}) and their mesh files ({@code packages/}, a ROS
 * package path), which the demos on those robots read and never copy into the repository.
 */
final class SharedFolder {
    private SharedFolder() {
    }

    /** The folder named by the first argument, else {@code ../shared} beside the working directory. */
    static Path of(String[] args) {
        return Path.of(args.length > 0 ? args[0] : "../shared");
    }

    /**
     * Whether {@code shared} holds {@code models/<model>} and {@code packages/}; if not, prints on standard output
     * that {@code demo} is skipped and why.
     */
    static boolean has(Path shared, String model, String demo) {
        Path file = shared.resolve("models").resolve(model);
        if (Files.isRegularFile(file) && Files.isDirectory(shared.resolve("packages"))) {
            return true;
        }
        System.out.println(demo + " skipped: " + file.toAbsolutePath() + " or its packages folder is absent (give"
                + " the team's shared folder as the first argument)");
        return false;
    }
}
