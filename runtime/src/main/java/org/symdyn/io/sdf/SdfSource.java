package org.symdyn.io.sdf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlDocument;
import org.symdyn.io.XmlElement;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.ModelException;

/**
 * The SDFormat files of one model: the main file and those its {@code <include>}s name. Each element keeps the file
 * it was written in (its {@link ValueReader}, so that problems print as {@code file:[line,col]} of that file, and
 * the file's {@code <sdf version>}).
 *
 * <p>An {@code <include><uri>} is found as SDFormat's parser finds it: {@code model://name/rest} in the folders of
 * the model path ({@link SdfReader.Options#modelPath()}, as {@code SDF_PATH} and {@code GZ_SIM_RESOURCE_PATH} list
 * them), {@code file://path} or a plain path relative to the including file's folder. A folder is a model folder:
 * the file its {@code model.config} names in its first {@code <sdf>} element, or {@code model.config}'s absence
 * {@code model.sdf}. Nothing is fetched from the network.
 */
final class SdfSource {
    /** The file an element was written in. */
    record FileInfo(ValueReader values, Path file, SdfVersion version) {
    }

    /** An included document: its root {@code <sdf>} element and its file. */
    record Included(XmlElement root, FileInfo file) {
    }

    private final Map<XmlElement, FileInfo> fileOf = new IdentityHashMap<>();
    private final Map<String, ValueReader> readers = new LinkedHashMap<>();
    private final XmlElement root;
    private final String sha256;
    private final List<Path> modelPath;

    private SdfSource(XmlDocument main, String path, Path file, List<Path> modelPath) {
        this.root = main.root();
        this.sha256 = main.sha256();
        this.modelPath = List.copyOf(modelPath);
        ValueReader values = reader(path);
        for (Diagnostic d : main.diagnostics()) {
            values.report(d);
        }
        register(root, new FileInfo(values, file, SdfVersion.parse(root.attribute("version"))));
    }

    static SdfSource read(Path file, String path, List<Path> modelPath) throws ModelException {
        return new SdfSource(XmlDocument.readWithText(file, path), path, file, modelPath);
    }

    static SdfSource parse(String xml, String path, List<Path> modelPath) throws ModelException {
        return new SdfSource(XmlDocument.parseWithText(xml, path), path, null, modelPath);
    }

    XmlElement root() {
        return root;
    }

    String sha256() {
        return sha256;
    }

    /** The file {@code e} was written in. */
    FileInfo file(XmlElement e) {
        FileInfo f = fileOf.get(e);
        return f != null ? f : fileOf.get(root);
    }

    /** The reader of the file {@code e} was written in. */
    ValueReader values(XmlElement e) {
        return file(e).values();
    }

    /** Every problem reported in every file, files in the order first read. */
    List<Diagnostic> diagnostics() {
        List<Diagnostic> all = new ArrayList<>();
        for (ValueReader v : readers.values()) {
            all.addAll(v.diagnostics());
        }
        return all;
    }

    /**
     * The document an {@code <include>} names, or null after reporting why it is not read: an unresolved
     * {@code model://} URI or a network URI is a warning (the include is skipped), a missing or unreadable file an
     * error, as is a file already being included on the way here ({@code chain}: a recursive include).
     */
    Included include(XmlElement include, List<Path> chain) {
        FileInfo from = file(include);
        ValueReader values = from.values();
        XmlElement uriElement = SdfText.first(include, "uri");
        String uri = SdfText.string(uriElement);
        if (uri == null || uri.isEmpty()) {
            values.error(include, "<include> has no <uri>");
            return null;
        }
        Path target;
        try {
            target = resolve(uri, from.file());
        } catch (InvalidPathException e) {
            values.error(uriElement, "include uri '" + Messages.cut(uri) + "' is not a file name");
            return null;
        }
        if (target == null) {
            if (uri.startsWith("model://")) {
                values.warning(uriElement, "include uri '" + Messages.cut(uri) + "' is not found in the model path"
                        + " (SDF_PATH, GZ_SIM_RESOURCE_PATH): the included model is skipped");
            } else if (uri.contains("://") && !uri.startsWith("file://")) {
                values.warning(uriElement, "include uri '" + Messages.cut(uri) + "' is not a local file (nothing is"
                        + " fetched from the network): the included model is skipped");
            } else {
                values.error(uriElement, "include uri '" + Messages.cut(uri) + "': "
                        + (from.file() == null ? "a model read from text has no folder to resolve it against"
                        : "no such file or model folder"));
            }
            return null;
        }
        Path real = real(target);
        if (chain.contains(real)) {
            values.error(uriElement, "include uri '" + Messages.cut(uri) + "' includes " + real
                    + ", which is already being included on the way here (a recursive include)");
            return null;
        }
        String path = target.toString();
        XmlDocument document;
        try {
            document = XmlDocument.readWithText(target, path);
        } catch (ModelException e) {
            ValueReader r = reader(path);
            for (Diagnostic d : e.diagnostics()) {
                r.report(d);
            }
            values.error(uriElement, "the included file " + path + " cannot be read (see its errors)");
            return null;
        }
        ValueReader r = reader(path);
        for (Diagnostic d : document.diagnostics()) {
            r.report(d);
        }
        FileInfo info = new FileInfo(r, target, SdfVersion.parse(document.root().attribute("version")));
        register(document.root(), info);
        return new Included(document.root(), info);
    }

    /** The real path of a file, or its absolute normal path when it cannot be resolved. */
    static Path real(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException | RuntimeException e) {
            return file.toAbsolutePath().normalize();
        }
    }

    private Path resolve(String uri, Path from) {
        Path file;
        if (uri.startsWith("model://")) {
            String rest = uri.substring("model://".length());
            file = null;
            for (Path dir : modelPath) {
                Path candidate = dir.resolve(rest);
                if (Files.exists(candidate)) {
                    file = candidate;
                    break;
                }
            }
            if (file == null) {
                return null;
            }
        } else if (uri.startsWith("file://")) {
            file = Path.of(uri.substring("file://".length()));
        } else if (uri.contains("://")) {
            return null;
        } else {
            file = Path.of(uri);
        }
        if (!file.isAbsolute()) {
            if (from == null) {
                return null;
            }
            Path dir = from.toAbsolutePath().getParent();
            file = dir == null ? file : dir.resolve(file);
        }
        if (Files.isDirectory(file)) {
            file = modelFileIn(file);
        }
        return file != null && Files.isRegularFile(file) ? file : null;
    }

    /** The SDFormat file of a model folder: model.config's first {@code <sdf>}, else model.sdf. */
    private static Path modelFileIn(Path dir) {
        Path config = dir.resolve("model.config");
        if (Files.isRegularFile(config)) {
            try {
                XmlElement c = XmlDocument.readWithText(config, config.toString()).root();
                String name = SdfText.string(c, "sdf");
                if (name != null && !name.isEmpty()) {
                    return dir.resolve(name);
                }
            } catch (ModelException | InvalidPathException e) {
                // fall back on model.sdf, as a folder without a readable model.config
            }
        }
        return dir.resolve("model.sdf");
    }

    private ValueReader reader(String path) {
        return readers.computeIfAbsent(path, ValueReader::new);
    }

    /** Records the file of every element of a document (an explicit stack: deep documents do not overflow). */
    private void register(XmlElement documentRoot, FileInfo info) {
        Deque<XmlElement> stack = new ArrayDeque<>();
        stack.push(documentRoot);
        while (!stack.isEmpty()) {
            XmlElement e = stack.pop();
            fileOf.put(e, info);
            for (XmlElement c : e.children()) {
                stack.push(c);
            }
        }
    }
}
