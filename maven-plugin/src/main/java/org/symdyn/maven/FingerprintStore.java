package org.symdyn.maven;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What the last successful run of one execution generated, per model: one properties file
 * ({@code <fingerprintDirectory>/<execution id>.properties}), keys {@code <model path relative to the source
 * directory>.<field>}:
 * <ul>
 * <li>{@code input}: SHA-256 of the model file's bytes, the generator's code hash and the configuration of the model
 * (see {@link #inputFingerprint});</li>
 * <li>{@code class}: the simple name of the generated class;</li>
 * <li>{@code output}: the absolute path of the generated source;</li>
 * <li>{@code outputSha256}: SHA-256 of that file's bytes as written.</li>
 * </ul>
 * A model is up to date when its input fingerprint is the recorded one and the recorded output is still there,
 * at the expected path, with the recorded bytes (so a deleted or hand-edited output is regenerated). A model of
 * the store that is no longer among the inputs was removed: its output is deleted. The store is rewritten only
 * after a run that succeeded, so a failed run leaves it as it was.
 */
final class FingerprintStore {
    /** Bump when the meaning of the input fingerprint changes, to regenerate everything once. */
    static final int FORMAT = 1;

    /** One model's record. */
    record Entry(String input, String className, String output, String outputSha256) {
    }

    private static final List<String> FIELDS = List.of("input", "class", "output", "outputSha256");

    private final Path file;
    private final Map<String, Entry> entries = new TreeMap<>();

    private FingerprintStore(Path file) {
        this.file = file;
    }

    /**
     * The store in {@code file}, empty when the file does not exist.
     *
     * @throws IOException the file cannot be read
     */
    static FingerprintStore load(Path file) throws IOException {
        FingerprintStore store = new FingerprintStore(file);
        if (!Files.exists(file)) {
            return store;
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IllegalArgumentException e) {
            return store; // damaged (malformed escape): forget it, everything is regenerated
        }
        Map<String, Map<String, String>> byModel = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            int dot = key.lastIndexOf('.');
            if (dot <= 0) {
                continue;
            }
            byModel.computeIfAbsent(key.substring(0, dot), k -> new TreeMap<>())
                    .put(key.substring(dot + 1), p.getProperty(key));
        }
        byModel.forEach((model, fields) -> {
            if (fields.keySet().containsAll(FIELDS)) {
                store.entries.put(model, new Entry(fields.get("input"), fields.get("class"), fields.get("output"),
                        fields.get("outputSha256")));
            }
        });
        return store;
    }

    /**
     * The input fingerprint of a model: SHA-256 over the store format, the generator's code hash, the SHA-256 of
     * the model file's bytes and each configuration value that shapes the output or decides whether the model is
     * accepted. The generator's version string is left out: the code hash identifies the generator exactly, and the
     * version is only known from a packaged jar, so that a reactor build alternating {@code mvn compile} (generator
     * in target/classes) and {@code mvn verify} (its jar) would otherwise regenerate every time.
     *
     * @param classOverride the configured class name, or null when it is derived from the robot name (which the
     *                      model bytes then cover)
     */
    static String inputFingerprint(GeneratorIdentity generator, String modelSha256, String packageName,
            String classOverride, boolean floatingBase, boolean strict, boolean closedForm, boolean mathTrig) {
        return new GeneratorIdentity.Sha256()
                .update("format=" + FORMAT + "\n")
                .update("generator=" + generator.codeSha256() + "\n")
                .update("model=" + modelSha256 + "\n")
                .update("package=" + packageName + "\n")
                .update("class=" + (classOverride == null ? "derived" : "override " + classOverride) + "\n")
                .update("floatingBase=" + floatingBase + "\n")
                .update("strict=" + strict + "\n")
                .update("closedForm=" + closedForm + "\n")
                .update("mathTrig=" + mathTrig + "\n")
                .hex();
    }

    Entry get(String model) {
        return entries.get(model);
    }

    void put(String model, Entry entry) {
        entries.put(model, entry);
    }

    void remove(String model) {
        entries.remove(model);
    }

    /** The recorded models, in order. */
    List<String> models() {
        return Collections.unmodifiableList(new ArrayList<>(entries.keySet()));
    }

    /**
     * Writes the store (sorted, no date, through a temporary file moved into place), or deletes the file when the
     * store is empty.
     */
    void save() throws IOException {
        if (entries.isEmpty()) {
            Files.deleteIfExists(file);
            return;
        }
        Properties p = new Properties();
        entries.forEach((model, e) -> {
            p.setProperty(model + ".input", e.input());
            p.setProperty(model + ".class", e.className());
            p.setProperty(model + ".output", e.output());
            p.setProperty(model + ".outputSha256", e.outputSha256());
        });
        StringWriter w = new StringWriter();
        p.store(w, null);
        List<String> lines = new ArrayList<>();
        for (String line : w.toString().split("\\R")) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                lines.add(line);
            }
        }
        Collections.sort(lines);
        StringBuilder text = new StringBuilder("# symdyn:generate fingerprints: model.field=value; delete to regenerate"
                + " everything\n");
        lines.forEach(l -> text.append(l).append('\n'));
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
