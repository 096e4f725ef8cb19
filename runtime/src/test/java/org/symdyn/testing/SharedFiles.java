package org.symdyn.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates {@code ../shared} (public models, reference values) beside the checkout. Tests that need it call
 * {@link #require(String)}, which skips the test with a message when the folder is absent, as in a user's clone.
 */
public final class SharedFiles {
    private SharedFiles() {
    }

    /** The shared folder, or null when it cannot be found. */
    public static Path root() {
        String prop = System.getProperty("symdyn.shared");
        if (prop != null && Files.isDirectory(Path.of(prop))) {
            return Path.of(prop).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        for (int i = 0; i < 4 && dir != null; i++, dir = dir.getParent()) {
            Path candidate = dir.resolve("../shared").normalize();
            if (Files.isDirectory(candidate.resolve("models"))) {
                return candidate;
            }
        }
        return null;
    }

    /** {@code shared/<relative>}; skips the calling test when it is absent. */
    public static Path require(String relative) {
        Path root = root();
        assumeTrue(root != null, "../shared is absent (a user's clone): skipping a test that reads " + relative);
        Path p = root.resolve(relative);
        assumeTrue(Files.exists(p), "../shared/" + relative + " is absent: skipping");
        return p;
    }

    /** {@code shared/models/<file>}; skips when absent. */
    public static Path model(String file) {
        return require("models/" + file);
    }
}
