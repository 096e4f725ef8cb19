package org.symdyn.io;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two faults of a model file's XML that the parsers of the formats' own tools accept (tinyxml2 under urdfdom
 * and libsdformat, and MuJoCo's, neither of which checks the declaration nor is namespace-aware) and the JDK's parser
 * refuses, repaired in the file's bytes before parsing so that such a file reads as it does there, each with a
 * warning:
 * <ul>
 * <li>an XML declaration whose {@code version} is neither 1.0 nor 1.1 (bullet3's {@code plane.urdf} says "0.0"):
 *     read as 1.0;</li>
 * <li>a namespace prefix used on an element or attribute and declared nowhere in the file (a {@code drake:} element
 *     in an SDFormat file without {@code xmlns:drake}): declared on the document element as the namespace
 *     {@value #UNDECLARED} followed by the prefix, so that its elements read as another tool's. The prefix
 *     {@code symdyn} is not repaired: its elements carry what SymDyn reads, and read as another tool's they would be
 *     skipped.</li>
 * </ul>
 * Both edits are ASCII and lie on the first line or at the end of the document element's start tag, so positions on
 * other lines are unchanged (later columns of that line move by the edit's length). A prefix on the document element
 * itself is not repaired (urdfdom refuses {@code <foo:robot>} too), nor a document with a document type declaration,
 * nor one whose bytes are not UTF-8 or ASCII up to the edit (UTF-16, or Latin-1 with accents in a header comment).
 */
final class XmlRepairs {
    /** The namespace an undeclared prefix is declared as, followed by the prefix. */
    static final String UNDECLARED = "urn:symdyn:undeclared-prefix:";

    private static final Pattern VERSION = Pattern.compile("\\A<\\?xml\\s+version\\s*=\\s*([\"'])([^\"'<>]*)\\1");
    private static final String NAME = "[A-Za-z_][A-Za-z0-9_.\\-]*";
    private static final Pattern ELEMENT_PREFIX = Pattern.compile("</?(" + NAME + "):" + NAME);
    private static final Pattern ATTRIBUTE_PREFIX = Pattern.compile("\\s(" + NAME + "):" + NAME + "\\s*=\\s*[\"']");
    private static final Pattern DECLARED_PREFIX = Pattern.compile("\\bxmlns:(" + NAME + ")\\s*=");
    /** The first element's start tag: its prefix, if any (comments and the like already blanked). */
    private static final Pattern ROOT_NAME = Pattern.compile("<(?:(" + NAME + "):)?" + NAME);
    private static final Pattern SKIPPED = Pattern.compile("<!--.*?-->|<!\\[CDATA\\[.*?]]>|<\\?.*?\\?>",
            Pattern.DOTALL);

    /** A document after a repair: its bytes and characters, and the warning for each repair (line, column, text). */
    record Repaired(byte[] bytes, String text, List<Finding> findings) {
    }

    /** A repair's warning, at a 1-based line and column of the original document. */
    record Finding(int line, int column, String message) {
    }

    private XmlRepairs() {
    }

    /**
     * The document with a declared version other than 1.0 and 1.1 read as 1.0; null if there is nothing to repair.
     *
     * @param bytes  the file's bytes
     * @param text   the same as characters, without a byte order mark
     * @param offset where {@code text} starts in {@code bytes} (3 after a UTF-8 byte order mark, else 0)
     */
    static Repaired version(byte[] bytes, String text, int offset) {
        Matcher m = VERSION.matcher(text);
        if (!m.find() || m.group(2).equals("1.0") || m.group(2).equals("1.1") || !ascii(text, 0, m.end())
                || !sameBytes(bytes, offset, text, m.end())) {
            return null;
        }
        int[] at = new LinePositions(text).of(m.start(2));
        Finding finding = new Finding(at[0], at[1], "XML version '" + Messages.cut(m.group(2)) + "' in the XML"
                + " declaration is not 1.0 or 1.1; read as XML 1.0 (as urdfdom, libsdformat and MuJoCo read it)");
        return replace(bytes, text, offset + m.start(2), m.start(2), m.end(2), "1.0", List.of(finding));
    }

    /**
     * The document with each namespace prefix that is used and declared nowhere (other than {@code xml},
     * {@code xmlns} and {@code symdyn}) declared on the document element; null if there is none or the document
     * element cannot be found.
     */
    static Repaired undeclaredPrefixes(byte[] bytes, String text, int offset, boolean chars) {
        String scanned = blankSkipped(text);
        Map<String, Integer> used = new LinkedHashMap<>();
        for (Pattern p : List.of(ELEMENT_PREFIX, ATTRIBUTE_PREFIX)) {
            Matcher m = p.matcher(scanned);
            while (m.find()) {
                used.merge(m.group(1), m.start(1), Math::min);
            }
        }
        Matcher d = DECLARED_PREFIX.matcher(scanned);
        while (d.find()) {
            used.remove(d.group(1));
        }
        used.keySet().removeAll(List.of("xml", "xmlns", "symdyn"));
        int end = rootTagEnd(scanned);
        if (used.isEmpty() || end < 0 || used.containsKey(rootPrefix(scanned)) || scanned.contains("<!DOCTYPE")) {
            return null; // a document type's markup could hold a '<' that is no element: left as it is
        }
        StringBuilder declarations = new StringBuilder();
        List<Finding> findings = new ArrayList<>();
        LinePositions lines = new LinePositions(text);
        used.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(e -> {
            declarations.append(" xmlns:").append(e.getKey()).append("=\"").append(UNDECLARED).append(e.getKey())
                    .append('"');
            int[] at = lines.of(e.getValue());
            findings.add(new Finding(at[0], at[1], "namespace prefix '" + e.getKey() + "' is used without a"
                    + " declaration (xmlns:" + e.getKey() + "=\"...\"); its elements and attributes are read as"
                    + " another tool's"));
        });
        int insert = scanned.charAt(end - 1) == '/' ? end - 1 : end;
        // where the insertion falls in the bytes: the text is the bytes read as UTF-8 (non-ASCII before it, as in a
        // header comment's ©, takes several bytes); the byte there must be what the text says, or the file was in
        // another encoding and is left as it is
        int at = offset + text.substring(0, insert).getBytes(StandardCharsets.UTF_8).length;
        if (!chars && (at >= bytes.length || bytes[at] != (byte) text.charAt(insert))) {
            return null;
        }
        return replace(bytes, text, at, insert, insert, declarations.toString(), findings);
    }

    /** The prefix of the document element's name, or "" when it has none (or there is no element). */
    private static String rootPrefix(String scanned) {
        Matcher m = ROOT_NAME.matcher(scanned);
        return m.find() && m.group(1) != null ? m.group(1) : "";
    }

    /** Offset of the {@code >} that ends the document element's start tag, or -1. */
    private static int rootTagEnd(String scanned) {
        int i = 0;
        while ((i = scanned.indexOf('<', i)) >= 0) {
            if (i + 1 < scanned.length() && (scanned.charAt(i + 1) == '!' || scanned.charAt(i + 1) == '?')) {
                i++;
                continue;
            }
            char quote = 0;
            for (int k = i + 1; k < scanned.length(); k++) {
                char c = scanned.charAt(k);
                if (quote != 0) {
                    quote = c == quote ? 0 : quote;
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '>') {
                    return k;
                }
            }
            return -1;
        }
        return -1;
    }

    /** {@code text} with comments, CDATA sections and processing instructions blanked (lengths kept). */
    private static String blankSkipped(String text) {
        StringBuilder b = new StringBuilder(text);
        Matcher m = SKIPPED.matcher(text);
        while (m.find()) {
            for (int k = m.start(); k < m.end(); k++) {
                if (b.charAt(k) != '\n' && b.charAt(k) != '\r') {
                    b.setCharAt(k, ' ');
                }
            }
        }
        return b.toString();
    }

    private static boolean ascii(String text, int from, int to) {
        for (int k = from; k < to; k++) {
            if (text.charAt(k) > 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** True if the first {@code n} characters of {@code text} are the bytes from {@code offset} (one byte each). */
    private static boolean sameBytes(byte[] bytes, int offset, String text, int n) {
        if (offset + n > bytes.length) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (bytes[offset + k] != (byte) text.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Characters [from, to) of the text, ASCII and so as many bytes from byte {@code at}, replaced by {@code with}
     * (an insertion when from = to).
     */
    private static Repaired replace(byte[] bytes, String text, int at, int from, int to, String with,
            List<Finding> findings) {
        byte[] insert = with.getBytes(StandardCharsets.US_ASCII);
        int removed = to - from;
        byte[] out = new byte[bytes.length - removed + insert.length];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(bytes, at + removed, out, at + insert.length, bytes.length - at - removed);
        return new Repaired(out, text.substring(0, from) + with + text.substring(to), findings);
    }
}
