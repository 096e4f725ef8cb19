package org.symdyn.io.mjcf;

import java.nio.file.Files;
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
 * An MJCF model as one element tree: the main document with every {@code <include file="..."/>} replaced by the
 * children of the included document's {@code <mujoco>} element, as MuJoCo's parser does before it reads anything
 * else. Each element keeps the {@link ValueReader} of the file it was written in, so that a problem is reported at
 * {@code file:[line,col]} of that file.
 *
 * <p>Rules: {@code file} is resolved against the directory of the including file, and, if no such file exists
 * there, against the directory of the main file (MuJoCo's rule, the same for a file included by the main file); the
 * included document's root must be {@code <mujoco>}. A file that includes itself, directly or through others, is a
 * located error at the {@code <include>} (a cycle); so is a file included a second time elsewhere, which MuJoCo
 * refuses too. A model parsed from a string has no directory: an include there is an error. Every element is
 * visited once, so the work is linear in the size of all files.
 */
final class MjcfSource {
    private final XmlElement root;
    private final Map<XmlElement, ValueReader> readerOf = new IdentityHashMap<>();
    private final Map<XmlElement, List<XmlElement>> expanded = new IdentityHashMap<>();
    /** One reader per file, in the order the files were first read (the main file first). */
    private final Map<String, ValueReader> readers = new LinkedHashMap<>();
    private final String sha256;

    private MjcfSource(XmlDocument main, String path, Path file) {
        this.root = main.root();
        this.sha256 = main.sha256();
        ValueReader mainValues = reader(path);
        for (Diagnostic d : main.diagnostics()) {
            mainValues.report(d);
        }
        Path mainDir = file == null ? null : parentOf(file);
        Map<Path, XmlElement> includedAt = new LinkedHashMap<>();
        if (file != null) {
            includedAt.put(real(file), null);
        }
        expand(root, mainValues, file, mainDir, includedAt, new ArrayList<>(List.of(file == null ? Path.of(path)
                : real(file))));
    }

    /** Reads a main file and everything it includes. */
    static MjcfSource read(Path file, String path) throws ModelException {
        return new MjcfSource(XmlDocument.read(file, path), path, file);
    }

    /** A main document given as text (includes cannot be resolved: there is no directory). */
    static MjcfSource parse(String xml, String path) throws ModelException {
        return new MjcfSource(XmlDocument.parse(xml, path), path, null);
    }

    /** The main document's root element. */
    XmlElement root() {
        return root;
    }

    /** The SHA-256 of the main file's bytes. */
    String sha256() {
        return sha256;
    }

    /** The reader of the file {@code e} was written in (reports at its start tag). */
    ValueReader values(XmlElement e) {
        ValueReader v = readerOf.get(e);
        return v != null ? v : readers.values().iterator().next();
    }

    /** The children of {@code e} in document order, includes replaced by the included elements. */
    List<XmlElement> children(XmlElement e) {
        List<XmlElement> list = expanded.get(e);
        return list != null ? list : e.children();
    }

    /** The children in no namespace with that local name, includes expanded. */
    List<XmlElement> children(XmlElement e, String name) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement c : children(e)) {
            if (c.is(name)) {
                out.add(c);
            }
        }
        return out;
    }

    /** The elements of several sections of one kind ({@code <actuator>}, ...), includes expanded, in order. */
    List<XmlElement> entries(List<XmlElement> sections) {
        List<XmlElement> out = new ArrayList<>();
        for (XmlElement section : sections) {
            out.addAll(children(section));
        }
        return out;
    }

    /** Every problem reported through any file's reader, file by file. */
    List<Diagnostic> diagnostics() {
        List<Diagnostic> all = new ArrayList<>();
        for (ValueReader v : readers.values()) {
            all.addAll(v.diagnostics());
        }
        return all;
    }

    /** Errors reported so far, over all files. */
    int errorCount() {
        int n = 0;
        for (ValueReader v : readers.values()) {
            n += v.errorCount();
        }
        return n;
    }

    private ValueReader reader(String path) {
        return readers.computeIfAbsent(path, ValueReader::new);
    }

    /**
     * Records the reader of every element under {@code top} and expands its includes; an explicit stack, so that a
     * deeply nested document does not overflow the call stack.
     *
     * @param chain the files from the main one to this one (for cycles)
     */
    private void expand(XmlElement top, ValueReader values, Path file, Path mainDir, Map<Path, XmlElement> includedAt,
            List<Path> chain) {
        Deque<XmlElement> stack = new ArrayDeque<>();
        stack.push(top);
        while (!stack.isEmpty()) {
            XmlElement e = stack.pop();
            readerOf.put(e, values);
            boolean hasInclude = false;
            for (XmlElement c : e.children()) {
                hasInclude |= c.is("include");
            }
            if (!hasInclude) {
                for (XmlElement c : e.children()) {
                    stack.push(c);
                }
                continue;
            }
            List<XmlElement> list = new ArrayList<>();
            for (XmlElement c : e.children()) {
                if (!c.is("include")) {
                    list.add(c);
                    stack.push(c);
                    continue;
                }
                readerOf.put(c, values);
                XmlElement included = include(c, values, file, mainDir, includedAt, chain);
                if (included != null) {
                    list.addAll(children(included));
                }
            }
            expanded.put(e, list);
        }
    }

    /** The root of the document an {@code <include>} names, expanded, or null after reporting why not. */
    private XmlElement include(XmlElement inc, ValueReader values, Path file, Path mainDir,
            Map<Path, XmlElement> includedAt, List<Path> chain) {
        String name = values.require(inc, "file", "<include> has no 'file' attribute");
        if (name == null) {
            return null;
        }
        if (file == null) {
            values.error(inc, "<include file='" + Messages.cut(name) + "'>: a model read from text has no directory"
                    + " to resolve included files against (read it from a file)");
            return null;
        }
        Path target;
        try {
            target = parentOf(file).resolve(name);
            if (!Files.exists(target) && mainDir != null && Files.exists(mainDir.resolve(name))) {
                target = mainDir.resolve(name);
            }
        } catch (RuntimeException e) {
            values.error(inc, "<include file='" + Messages.cut(name) + "'>: not a valid path (" + e.getMessage()
                    + ")");
            return null;
        }
        if (!Files.isRegularFile(target)) {
            values.error(inc, "<include file='" + Messages.cut(name) + "'>: no such file " + target);
            return null;
        }
        Path key = real(target);
        if (chain.contains(key)) {
            values.error(inc, "<include file='" + Messages.cut(name) + "'>: recursive include (" + key
                    + " includes itself" + (chain.get(chain.size() - 1).equals(key) ? "" : " through "
                    + chain.subList(chain.indexOf(key) + 1, chain.size())) + ")");
            return null;
        }
        if (includedAt.containsKey(key)) {
            XmlElement first = includedAt.get(key);
            values.error(inc, "<include file='" + Messages.cut(name) + "'>: " + key + " is already included"
                    + (first == null ? "" : " (at line " + first.line() + ")") + "; a file is included once");
            return null;
        }
        includedAt.put(key, inc);
        String path = target.toString();
        XmlDocument document;
        try {
            document = XmlDocument.read(target, path);
        } catch (ModelException e) {
            ValueReader inner = reader(path);
            for (Diagnostic d : e.diagnostics()) {
                inner.report(d);
            }
            values.error(inc, "<include file='" + Messages.cut(name) + "'>: the included file cannot be read");
            return null;
        }
        ValueReader inner = reader(path);
        for (Diagnostic d : document.diagnostics()) {
            inner.report(d);
        }
        XmlElement r = document.root();
        if (!r.is("mujoco")) {
            inner.error(r, "the included document's element is <" + Messages.cut(r.name()) + ">, expected <mujoco>");
            return null;
        }
        chain.add(key);
        expand(r, inner, target, mainDir, includedAt, chain);
        chain.remove(chain.size() - 1);
        return r;
    }

    private static Path parentOf(Path file) {
        Path abs = file.toAbsolutePath();
        Path parent = abs.getParent();
        return parent == null ? abs : parent;
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (Exception e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
