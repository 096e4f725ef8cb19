package org.symdyn.maven;

import java.io.File;
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
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.symdyn.contract.ModelPart;
import org.symdyn.generator.KinematicsForm;
import org.symdyn.generator.GeneratorIdentity;

/**
 * What the executions of the goal generated into one output directory: one properties file per output directory
 * ({@link #fileFor}), shared by every execution writing there, so that outputs are owned per directory and each
 * recorded file names its execution. Keys {@code <execution id>/<model path relative to the source
 * directory>.<field>}, plus {@code symdyn.format}:
 * <ul>
 * <li>{@code model}: SHA-256 of the model file's bytes;</li>
 * <li>{@code generator}: the generator's code hash ({@link GeneratorIdentity#codeSha256()}; not its version
 * string);</li>
 * <li>{@code options}: every configuration value that shapes the output or decides whether the model is accepted
 * ({@link #options}: package, class name override, floatingBase, strict, closedForm, mathTrig, derivatives);</li>
 * <li>{@code class}: the simple name of the generated class;</li>
 * <li>{@code output}: the generated source's path relative to the output directory, '/'-separated;</li>
 * <li>{@code outputSha256}: SHA-256 of that file's bytes as written.</li>
 * </ul>
 * Outputs are recorded relative to the output directory and resolved against the current one, so a copied project
 * never touches the original's files, and an entry naming anything outside the directory is dropped. A store that
 * cannot be read (damaged, or written by an older format) is {@linkplain #damage() reported} and read as empty: every
 * model is then regenerated. The store is rewritten only after a run that succeeded, through a temporary file.
 */
final class FingerprintStore {
    /** Bump when the meaning of the fields changes, to regenerate everything once. */
    static final int FORMAT = 2;

    private static final String FORMAT_KEY = "symdyn.format";

    /** One model's record, for one execution. */
    record Entry(String execution, String model, String modelSha256, String generator, String options,
            String className, String output, String outputSha256) {
        String key() {
            return execution + "/" + model;
        }
    }

    private static final List<String> FIELDS = List.of("model", "generator", "options", "class", "output",
            "outputSha256");

    private final Path file;
    private final Map<String, Entry> entries = new TreeMap<>();
    private final List<String> damage = new ArrayList<>();

    private FingerprintStore(Path file) {
        this.file = file;
    }

    /**
     * The store file of an output directory: named after the directory's path relative to the fingerprint
     * directory's parent (the build directory), e.g. {@code generated-sources_symdyn.properties}; an output directory
     * elsewhere gets {@code out-<hash of its absolute path>.properties}.
     */
    static Path fileFor(File fingerprintDirectory, File outputDirectory) {
        Path dir = fingerprintDirectory.getAbsoluteFile().toPath().normalize();
        Path out = outputDirectory.getAbsoluteFile().toPath().normalize();
        Path base = dir.getParent();
        String name;
        if (base != null && out.startsWith(base) && !out.equals(base)) {
            name = base.relativize(out).toString().replace(File.separatorChar, '/').replaceAll("[^A-Za-z0-9._-]", "_");
        } else {
            name = "out-" + GeneratorIdentity.Sha256.of(out.toString().getBytes(StandardCharsets.UTF_8))
                    .substring(0, 16);
        }
        return dir.resolve(name + ".properties");
    }

    /** The store in {@code file}: empty when the file does not exist; empty with a {@link #damage()} if unreadable. */
    static FingerprintStore load(Path file) {
        FingerprintStore store = new FingerprintStore(file);
        if (!Files.exists(file)) {
            return store;
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException | IllegalArgumentException e) {
            store.damage.add("cannot read it (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
            return store;
        }
        if (!String.valueOf(FORMAT).equals(p.getProperty(FORMAT_KEY))) {
            store.damage.add("format " + p.getProperty(FORMAT_KEY, "1") + ", not " + FORMAT
                    + " (written by another version of the plugin)");
            return store;
        }
        Map<String, Map<String, String>> byKey = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            int slash = key.indexOf('/');
            int dot = key.lastIndexOf('.');
            if (key.equals(FORMAT_KEY)) {
                continue;
            }
            if (slash <= 0 || dot <= slash + 1) {
                store.damage.add("unknown key '" + key + "'");
                continue;
            }
            byKey.computeIfAbsent(key.substring(0, dot), k -> new LinkedHashMap<>())
                    .put(key.substring(dot + 1), p.getProperty(key));
        }
        byKey.forEach((key, fields) -> {
            if (!fields.keySet().containsAll(FIELDS)) {
                store.damage.add("incomplete record '" + key + "'");
                return;
            }
            String output = fields.get("output");
            if (!isOwnRelativePath(output)) {
                store.damage.add("record '" + key + "' names an output outside the output directory ('" + output
                        + "'); ignored, and that file is never deleted");
                return;
            }
            int slash = key.indexOf('/');
            store.entries.put(key, new Entry(key.substring(0, slash), key.substring(slash + 1), fields.get("model"),
                    fields.get("generator"), fields.get("options"), fields.get("class"), output,
                    fields.get("outputSha256")));
        });
        return store;
    }

    /**
     * Whether {@code path} can be a generated source under the output directory: relative, '/'-separated, no empty,
     * {@code .} or {@code ..} segment, ending in {@code .java}.
     */
    static boolean isOwnRelativePath(String path) {
        if (path == null || path.isEmpty() || path.startsWith("/") || path.contains("\\") || path.contains(":")
                || !path.endsWith(".java")) {
            return false;
        }
        for (String segment : path.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** What was wrong with the file (each problem once), or empty; its records were then (partly) ignored. */
    List<String> damage() {
        return Collections.unmodifiableList(damage);
    }

    Path file() {
        return file;
    }

    /**
     * The options part of the fingerprint: every configuration value that shapes the output or decides whether
     * the model is accepted, as {@code name=value} pairs separated by {@code ;}.
     *
     * @param classOverride the configured class name, or null when it is derived from the robot name (which the
     *                      model bytes then cover)
     */
    static String options(String packageName, String classOverride, boolean floatingBase, boolean strict,
            boolean closedForm, boolean mathTrig) {
        return options(packageName, classOverride, floatingBase, strict, closedForm, mathTrig, false);
    }

    /** As above, with the {@code derivatives} option. */
    static String options(String packageName, String classOverride, boolean floatingBase, boolean strict,
            boolean closedForm, boolean mathTrig, boolean derivatives) {
        return "package=" + packageName + ";class=" + (classOverride == null ? "(derived)" : classOverride)
                + ";floatingBase=" + floatingBase + ";strict=" + strict + ";closedForm=" + closedForm
                + ";mathTrig=" + mathTrig + ";derivatives=" + derivatives;
    }

    /**
     * The fingerprint's part for the {@code parts} option: empty for the default parts (with or without the
     * derivatives, which {@code derivatives=} states), so that the default keeps its fingerprint.
     */
    static String partsOption(Set<ModelPart> parts) {
        Set<ModelPart> rest = EnumSet.copyOf(parts);
        rest.remove(ModelPart.DERIVATIVES);
        if (rest.equals(ModelPart.defaults())) {
            return "";
        }
        return ";parts=" + String.join(",", rest.stream().map(ModelPart::optionName).toList());
    }

    /**
     * The kinematics form's part of a fingerprint: empty for the default {@link KinematicsForm#BY_SIZE} (so that
     * fingerprints written before the option existed stay valid), else {@code ;kinematics=compact} and so on.
     */
    static String kinematicsOption(KinematicsForm form) {
        return form == KinematicsForm.BY_SIZE ? "" : ";kinematics=" + form.optionName();
    }

    /** The options that differ between two {@link #options} strings, e.g. {@code mathTrig false -> true}. */
    static List<String> changedOptions(String before, String after) {
        Map<String, String> a = parse(before);
        Map<String, String> b = parse(after);
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, String> e : b.entrySet()) {
            String old = a.get(e.getKey());
            if (!e.getValue().equals(old)) {
                changed.add(e.getKey() + " " + (old == null ? "(unset)" : old) + " -> " + e.getValue());
            }
        }
        // an option written only when not at its default (partsOption) is gone when set back to it
        for (Map.Entry<String, String> e : a.entrySet()) {
            if (!b.containsKey(e.getKey())) {
                changed.add(e.getKey() + " " + e.getValue() + " -> (unset)");
            }
        }
        return changed;
    }

    private static Map<String, String> parse(String options) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : String.valueOf(options).split(";")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                map.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return map;
    }

    Entry get(String execution, String model) {
        return entries.get(execution + "/" + model);
    }

    void put(Entry entry) {
        entries.put(entry.key(), entry);
    }

    void remove(Entry entry) {
        entries.remove(entry.key());
    }

    /** Every record, sorted by execution and model. */
    List<Entry> entries() {
        return List.copyOf(entries.values());
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
        entries.forEach((key, e) -> {
            p.setProperty(key + ".model", e.modelSha256());
            p.setProperty(key + ".generator", e.generator());
            p.setProperty(key + ".options", e.options());
            p.setProperty(key + ".class", e.className());
            p.setProperty(key + ".output", e.output());
            p.setProperty(key + ".outputSha256", e.outputSha256());
        });
        p.setProperty(FORMAT_KEY, String.valueOf(FORMAT));
        StringWriter w = new StringWriter();
        p.store(w, null);
        List<String> lines = new ArrayList<>();
        for (String line : w.toString().split("\\R")) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                lines.add(line);
            }
        }
        Collections.sort(lines);
        StringBuilder text = new StringBuilder("# symdyn:generate fingerprints of one output directory:"
                + " execution/model.field=value; delete to regenerate everything\n");
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
