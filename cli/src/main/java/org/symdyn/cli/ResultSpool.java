package org.symdyn.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.symdyn.cli.json.JsonValue;

/**
 * The elements of a document {@code {"KEY": [element, ...]}} spooled to a temporary file as they come, so that a
 * command that prints all or nothing (every element, or only the problems) holds one element in memory, not all of
 * them: {@code evaluate} held every state's result tree until the last state, and a 2 MiB states file of 131,000
 * states ran out of a 256 MB heap (a helper's finding). {@link #writeTo} prints exactly what
 * {@link SymDynCli#WRITER} prints for the whole document, two spaces per level. The file is deleted on
 * {@link #close}.
 */
final class ResultSpool implements AutoCloseable {
    /** The indentation of an element of the top-level object's array (level 2). */
    private static final String ELEMENT_INDENT = "    ";

    private final String key;
    private final Path file;
    private final Writer writer;
    private long count;

    /** A spool for the array of {@code key} (a JSON key that needs no escaping). */
    ResultSpool(String key) throws IOException {
        this.key = key;
        this.file = Files.createTempFile("symdyn-", ".json");
        this.writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    /** Appends one element. */
    void add(JsonValue element) {
        try {
            if (count++ > 0) {
                writer.write(",\n" + ELEMENT_INDENT);
            }
            // the writer's raw newlines are its layout's alone (a string's are escaped): each moves two levels in
            writer.write(SymDynCli.WRITER.write(element).replace("\n", "\n" + ELEMENT_INDENT));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the temporary file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The number of elements added. */
    long size() {
        return count;
    }

    /** Prints the whole document and a line break. */
    void writeTo(PrintStream out) throws IOException {
        writer.flush();
        if (count == 0) {
            out.println("{\n  \"" + key + "\": []\n}");
            return;
        }
        out.print("{\n  \"" + key + "\": [\n" + ELEMENT_INDENT);
        char[] buffer = new char[1 << 16];
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (int n; (n = in.read(buffer)) > 0;) {
                out.print(n == buffer.length ? buffer : java.util.Arrays.copyOf(buffer, n));
            }
        }
        out.println("\n  ]\n}");
    }

    @Override
    public void close() throws IOException {
        try {
            writer.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
