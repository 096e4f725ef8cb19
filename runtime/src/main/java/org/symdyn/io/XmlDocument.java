package org.symdyn.io;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.ModelException;
import org.symdyn.model.SourceLocation;
import org.xml.sax.InputSource;

/**
 * A model file read as an XML element tree, whatever its format: the file's bytes (at most
 * {@value #MAX_FILE_BYTES} bytes), their SHA-256, the document element, and what the XML layer found
 * ({@link #diagnostics}): the entity references the hardened parser did not read, as errors at their {@code &} or
 * {@code %}, and warnings for the faults other formats' parsers accept, repaired before parsing ({@link XmlRepairs}).
 * A format's reader reports those with its own problems, so that a file is refused with every problem found, and
 * reads the element tree.
 *
 * <p>A document that is not well-formed XML is refused at once (nothing else can be read from it), with one
 * diagnostic {@code path:[line,col] malformed XML: ...} at the parser's position, or at the name in the XML
 * declaration of an encoding the parser does not know.
 */
public final class XmlDocument {
    /**
     * The largest model file read (64 MiB; public URDFs are a few MB): a larger file, or a device such as
     * {@code /dev/zero}, is refused after reading that much instead of exhausting the memory.
     */
    public static final int MAX_FILE_BYTES = 64 << 20;

    private final XmlElement root;
    private final List<Diagnostic> diagnostics;
    private final String sha256;

    private XmlDocument(XmlElement root, List<Diagnostic> diagnostics, String sha256) {
        this.root = root;
        this.diagnostics = List.copyOf(diagnostics);
        this.sha256 = sha256;
    }

    /**
     * Reads a file; the parser gets its bytes, so that it honours the file's encoding declaration.
     *
     * @param path the file's name as messages print it
     * @throws ModelException if the file cannot be read ({@code path:[0,0] cannot read file: <reason>}) or is not
     *                        well-formed XML
     */
    public static XmlDocument read(Path file, String path) throws ModelException {
        return read(file, path, false);
    }

    /**
     * Reads a file as {@link #read} does, keeping each element's character content ({@link XmlElement#text()}):
     * for XML formats that carry data in text, such as Collada's number arrays. The same limit of
     * {@value #MAX_FILE_BYTES} bytes holds.
     *
     * @throws ModelException as {@link #read}
     */
    public static XmlDocument readWithText(Path file, String path) throws ModelException {
        return read(file, path, true);
    }

    private static XmlDocument read(Path file, String path, boolean keepText) throws ModelException {
        byte[] bytes;
        try {
            bytes = readBounded(file, MAX_FILE_BYTES);
        } catch (IOException | RuntimeException e) {
            throw new ModelException(Diagnostic.error(new SourceLocation(path, 0, 0),
                    "cannot read file: " + Messages.ioReason(e)));
        }
        if (bytes == null) {
            throw new ModelException(Diagnostic.error(new SourceLocation(path, 0, 0), "cannot read file: it is"
                    + " larger than " + (MAX_FILE_BYTES >> 20) + " MiB, the limit for a model file"));
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        int offset = 0;
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1); // the parser does not count a byte order mark as a column
            offset = 3;
        }
        return parse(bytes, text, offset, false, path, keepText);
    }

    /**
     * Reads a document given as characters; its SHA-256 is that of its UTF-8 bytes.
     *
     * @param path the name messages print
     * @throws ModelException if {@code xml} is null or not well-formed XML
     */
    public static XmlDocument parse(String xml, String path) throws ModelException {
        return parse(xml, path, false);
    }

    /** Reads a document given as characters as {@link #parse} does, keeping each element's character content. */
    public static XmlDocument parseWithText(String xml, String path) throws ModelException {
        return parse(xml, path, true);
    }

    private static XmlDocument parse(String xml, String path, boolean keepText) throws ModelException {
        if (xml == null) {
            throw new ModelException(Diagnostic.error(new SourceLocation(path, 0, 0), "no document (null)"));
        }
        return parse(xml.getBytes(StandardCharsets.UTF_8), xml, 0, true, path, keepText);
    }

    /** The document element. */
    public XmlElement root() {
        return root;
    }

    /**
     * What the XML layer found, for the format's reader to report with its own problems: first a warning for each
     * fault repaired before parsing ({@link XmlRepairs}: a declared version other than 1.0 and 1.1, an undeclared
     * namespace prefix), in document order; then one error per entity reference whose replacement text was not read
     * (external entities and DTDs are never loaded): those the parser skipped, then those found in attribute values
     * and in the internal subset.
     */
    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /**
     * The entity references whose replacement text was not read, as errors: {@link #diagnostics()}'s errors, what
     * this method returned before the repairs' warnings joined them.
     *
     * @deprecated use {@link #diagnostics()}, which also carries the warnings of the faults repaired before parsing
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public List<Diagnostic> unreadEntities() {
        return diagnostics.stream().filter(Diagnostic::isError).toList();
    }

    /** The SHA-256 of the file's bytes, in lower-case hexadecimal. */
    public String sha256() {
        return sha256;
    }

    /**
     * @param bytes  the document's bytes (the file's, or the UTF-8 of the characters given)
     * @param text   the document as characters, without a byte order mark
     * @param offset where {@code text} starts in {@code bytes}
     * @param chars  parse {@code text} (the document was given as characters), else {@code bytes}
     */
    private static XmlDocument parse(byte[] bytes, String text, int offset, boolean chars, String path,
            boolean keepText) throws ModelException {
        try {
            List<Diagnostic> found = new ArrayList<>();
            XmlRepairs.Repaired version = XmlRepairs.version(bytes, text, offset);
            byte[] b = version == null ? bytes : version.bytes();
            String t = version == null ? text : version.text();
            XmlTreeParser.Document document;
            try {
                document = XmlTreeParser.parse(source(b, t, chars), t, keepText);
            } catch (XmlTreeParser.MalformedXmlException e) {
                XmlRepairs.Repaired prefixes = XmlRepairs.undeclaredPrefixes(b, t, offset, chars);
                if (prefixes == null) {
                    throw malformed(e, t, path);
                }
                try {
                    document = XmlTreeParser.parse(source(prefixes.bytes(), prefixes.text(), chars), prefixes.text(),
                            keepText);
                } catch (XmlTreeParser.MalformedXmlException again) {
                    // another fault besides the prefixes: the repaired document's error names it
                    throw malformed(again, prefixes.text(), path);
                }
                report(prefixes, path, found);
            }
            if (version != null) {
                report(version, path, found);
            }
            found.sort(java.util.Comparator.comparingInt((Diagnostic d) -> d.location().line())
                    .thenComparingInt(d -> d.location().column()));
            List<Diagnostic> unread = new ArrayList<>();
            Set<String> reported = new HashSet<>();
            for (XmlTreeParser.SkippedEntity s : document.skippedEntities()) {
                String ref = s.name().startsWith("%") ? s.name() + ";" : "&" + s.name() + ";";
                reported.add(ref);
                unread.add(Diagnostic.error(new SourceLocation(path, s.line(), s.column()), "entity reference '"
                        + Messages.cut(ref) + "' was not read: external entities and DTDs are never loaded (write the"
                        + " content into the file)"));
            }
            for (UnexpandedEntities.Reference r : UnexpandedEntities.find(text, document.internalEntities(),
                    document.externalEntities())) {
                if (r.parameter() && reported.contains(r.text())) {
                    continue;
                }
                String why = r.external() ? "it is an external entity, and external entities and DTDs are never"
                        + " loaded" : "no declaration in the document expands it (an external DTD is never loaded)";
                unread.add(Diagnostic.error(new SourceLocation(path, r.line(), r.column()), (r.parameter()
                        ? "parameter entity reference '" : "entity reference '") + Messages.cut(r.text())
                        + "'" + (r.parameter() ? "" : " in an attribute value") + " was not read: " + why
                        + " (write the content into the file)"));
            }
            found.addAll(unread);
            return new XmlDocument(document.root(), found, sha256(bytes));
        } catch (RuntimeException e) {
            throw internalError(path, e);
        }
    }

    private static InputSource source(byte[] bytes, String text, boolean chars) {
        return chars ? new InputSource(new StringReader(text)) : new InputSource(new ByteArrayInputStream(bytes));
    }

    private static void report(XmlRepairs.Repaired repaired, String path, List<Diagnostic> found) {
        for (XmlRepairs.Finding f : repaired.findings()) {
            found.add(Diagnostic.warning(new SourceLocation(path, f.line(), f.column()), f.message()));
        }
    }

    private static ModelException malformed(XmlTreeParser.MalformedXmlException e, String text, String path) {
        int[] at = e.line > 0 ? new int[] {e.line, e.column} : EncodingDeclaration.position(text);
        String message = e.line > 0 || at[0] == 0 ? e.getMessage()
                : "unsupported encoding '" + Messages.cut(EncodingDeclaration.name(text))
                        + "' in the XML declaration (" + Messages.cut(e.getMessage()) + ")";
        return new ModelException(Diagnostic.error(new SourceLocation(path, at[0], at[1]), "malformed XML: "
                + message));
    }

    /**
     * The refusal of a file whose reading failed on a bug: a bug must not surface as a stack trace in a build log,
     * nor let a half-read model out.
     */
    public static ModelException internalError(String path, RuntimeException e) {
        return new ModelException(Diagnostic.error(new SourceLocation(path, 0, 0),
                "internal error while reading the model: " + e));
    }

    /**
     * The file's bytes, or null if it holds more than {@code limit} (read in chunks, so that a device that never
     * ends is refused after {@code limit} bytes).
     */
    static byte[] readBounded(Path file, int limit) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(limit);
            if (bytes.length == limit && in.read() >= 0) {
                return null;
            }
            return bytes;
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }
}
