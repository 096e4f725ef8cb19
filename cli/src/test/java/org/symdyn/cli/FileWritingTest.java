package org.symdyn.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Base of the command-line tests that write model and state files into a fresh temporary directory per test. */
abstract class FileWritingTest {
    @TempDir
    Path dir;

    /** Writes {@code text} (UTF-8) to {@code name} in the test's directory and returns its path. */
    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }
}
