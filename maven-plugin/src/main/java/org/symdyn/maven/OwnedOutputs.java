package org.symdyn.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.symdyn.generator.GeneratorIdentity;

/**
 * The only way the goal deletes a file: one it wrote, under its own output directory, identified by its path
 * relative to that directory, and still holding the bytes it wrote (a file edited since, or replaced by a link, is
 * kept).
 */
final class OwnedOutputs {
    /** What became of a file asked to be deleted. */
    enum Outcome {
        /** Deleted. */
        DELETED,
        /** Already gone. */
        GONE,
        /** Kept: it changed since it was written, or is not a regular file. */
        KEPT_CHANGED,
        /** Refused: the path does not lie under the output directory. */
        REFUSED
    }

    private final Path root;

    OwnedOutputs(Path outputDirectory) {
        this.root = outputDirectory.toAbsolutePath().normalize();
    }

    /** The file of a relative output path, or null if the path leaves the output directory. */
    Path resolve(String relative) {
        if (!FingerprintStore.isOwnRelativePath(relative)) {
            return null;
        }
        Path p = root.resolve(relative).normalize();
        return p.startsWith(root) && !p.equals(root) ? p : null;
    }

    /** The relative, '/'-separated path of a file under the output directory. */
    String relative(Path file) {
        return root.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }

    /** Deletes {@code relative} if it is under the output directory and holds the bytes with {@code sha256}. */
    Outcome delete(String relative, String sha256) throws IOException {
        Path p = resolve(relative);
        if (p == null) {
            return Outcome.REFUSED;
        }
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return Outcome.GONE;
        }
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                || !GeneratorIdentity.Sha256.of(Files.readAllBytes(p)).equals(sha256)) {
            return Outcome.KEPT_CHANGED;
        }
        Files.delete(p);
        return Outcome.DELETED;
    }
}
