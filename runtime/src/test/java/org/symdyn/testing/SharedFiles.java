package org.symdyn.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.opentest4j.TestAbortedException;

/**
 * Locates {@code ../shared} (public models, reference values) beside the checkout. Tests that need it call
 * {@link #require(String)}, which skips the test with a message when the folder is absent, as in a user's clone;
 * {@link SharedFilesSummary} counts those skips and prints one line per module on the console.
 *
 * <p>Where it looks, first match wins:
 * <ol>
 * <li>the system property {@value #PROPERTY} ({@code mvn verify -Dsymdyn.shared=DIR}; Surefire passes the command
 * line's properties to the test JVM): the folder itself, and nowhere else when it is set;</li>
 * <li>the system property {@value #BUILD_DEFAULT_PROPERTY}, which the parent POM sets to {@code ../shared} beside
 * the reactor's root;</li>
 * <li>{@code ../shared} beside the working directory or one of its three parents (a test run from an IDE).</li>
 * </ol>
 */
public final class SharedFiles {
    /** The user's choice of the shared folder. */
    public static final String PROPERTY = "symdyn.shared";
    /** The build's default, {@code ${maven.multiModuleProjectDirectory}/../shared} (parent POM, Surefire). */
    public static final String BUILD_DEFAULT_PROPERTY = "symdyn.shared.default";

    private SharedFiles() {
    }

    /** A test skipped because a file of the shared folder is absent ({@link SharedFilesSummary} counts these). */
    public static final class Absent extends TestAbortedException {
        private static final long serialVersionUID = 1L;

        Absent(String message) {
            super(message);
        }
    }

    /** The shared folder, or null when it cannot be found. */
    public static Path root() {
        String explicit = System.getProperty(PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit).toAbsolutePath().normalize();
            return Files.isDirectory(p) ? p : null;
        }
        String byBuild = System.getProperty(BUILD_DEFAULT_PROPERTY);
        if (byBuild != null && !byBuild.isBlank() && Files.isDirectory(Path.of(byBuild).resolve("models"))) {
            return Path.of(byBuild).toAbsolutePath().normalize();
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

    /** Where {@link #root()} looked, for messages: the property's folder, or the default and the working directory. */
    public static String searched() {
        String explicit = System.getProperty(PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            return "-D" + PROPERTY + "=" + explicit + " is not a directory";
        }
        String byBuild = System.getProperty(BUILD_DEFAULT_PROPERTY);
        String where = byBuild != null && !byBuild.isBlank()
                ? "at " + Path.of(byBuild).toAbsolutePath().normalize() + " nor " : "";
        return "not found " + where + "beside " + Path.of("").toAbsolutePath() + " or its parents";
    }

    /** {@code shared/<relative>}; skips the calling test when it is absent. */
    public static Path require(String relative) {
        Path root = root();
        if (root == null) {
            throw new Absent("../shared is absent (" + searched() + "): skipping a test that reads " + relative);
        }
        Path p = root.resolve(relative);
        if (!Files.exists(p)) {
            throw new Absent(p + " is absent: skipping");
        }
        return p;
    }

    /** {@code shared/models/<file>}; skips when absent. */
    public static Path model(String file) {
        return require("models/" + file);
    }
}
