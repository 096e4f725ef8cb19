package org.symdyn.io;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the entity references that the parser silently dropped. A document whose type declaration has an external
 * subset (or a reference to an external parameter entity) may use entities declared there; since the parser never
 * reads it, an undeclared entity is then not an error for the parser, and a reference in an attribute value
 * vanishes without a callback ({@code value="1&e;5"} would read as 15). References in element content reach
 * {@link XmlTreeParser} as skipped entities; this scan finds the others in the text itself: general entity
 * references in attribute values and parameter entity references in the internal subset, each at its {@code &}
 * or {@code %}, that no internal declaration expands.
 *
 * <p>Run only on a document that the parser accepted, so the text is well-formed XML and the scan can be simple.
 */
final class UnexpandedEntities {
    private static final Set<String> PREDEFINED = Set.of("lt", "gt", "amp", "apos", "quot");
    private static final Pattern REFERENCE = Pattern.compile("[&%]([^;&%\\s]+);");
    /** Reports beyond this many are dropped: one is enough to refuse the file. */
    private static final int MAX_REPORTS = 20;

    /** One reference that nothing expands; {@code parameter} for {@code %name;} in the internal subset. */
    record Reference(String name, boolean parameter, boolean external, int line, int column) {
        String text() {
            return (parameter ? "%" : "&") + name + ";";
        }
    }

    private final String text;
    private final Map<String, String> internal;
    private final Set<String> external;
    private final List<Reference> found = new ArrayList<>();
    private final LinePositions positions;

    private UnexpandedEntities(String text, Map<String, String> internal, Set<String> external) {
        this.text = text;
        this.internal = internal;
        this.external = external;
        this.positions = new LinePositions(text);
    }

    /**
     * @param internal internal entity declarations, name to replacement text (parameter entities as {@code %name})
     * @param external names of externally declared entities (parameter entities as {@code %name})
     */
    static List<Reference> find(String text, Map<String, String> internal, Set<String> external) {
        if (!text.contains("<!DOCTYPE")) {
            return List.of(); // without a DTD the parser itself refuses every undeclared entity
        }
        UnexpandedEntities scan = new UnexpandedEntities(text, internal, external);
        scan.run();
        return scan.found;
    }

    private void run() {
        int i = 0;
        int n = text.length();
        while (i < n && found.size() < MAX_REPORTS) {
            int lt = text.indexOf('<', i);
            if (lt < 0) {
                return;
            }
            if (text.startsWith("<!--", lt)) {
                i = skipPast(lt + 4, "-->");
            } else if (text.startsWith("<![CDATA[", lt)) {
                i = skipPast(lt + 9, "]]>");
            } else if (text.startsWith("<?", lt)) {
                i = skipPast(lt + 2, "?>");
            } else if (text.startsWith("<!DOCTYPE", lt)) {
                i = closingBracket(lt + 9, false, true);
            } else if (text.startsWith("</", lt)) {
                i = skipPast(lt + 2, ">");
            } else {
                i = closingBracket(lt + 1, true, false);
            }
        }
    }

    private int skipPast(int from, String end) {
        int at = text.indexOf(end, from);
        return at < 0 ? text.length() : at + end.length();
    }

    /** Past a quoted literal starting at {@code from} (the quote); attribute values are checked for references. */
    private int literal(int from, boolean attributeValue) {
        char quote = text.charAt(from);
        int end = text.indexOf(quote, from + 1);
        if (end < 0) {
            end = text.length();
        }
        if (attributeValue) {
            references(from + 1, end, false);
        }
        return Math.min(end + 1, text.length());
    }

    /**
     * Past the {@code >} that closes a start tag ({@code attributeValues}: its quoted literals are attribute values,
     * checked for references), a markup declaration of the internal subset (its literals are not), or the document
     * type declaration ({@code doctype}: a {@code [} there opens the internal subset), skipping the quoted literals
     * in which a {@code >} does not close anything.
     */
    private int closingBracket(int from, boolean attributeValues, boolean doctype) {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '>') {
                return i + 1;
            }
            if (c == '"' || c == '\'') {
                i = literal(i, attributeValues);
            } else if (doctype && c == '[') {
                i = internalSubset(i + 1);
            } else {
                i++;
            }
        }
        return i;
    }

    private int internalSubset(int from) {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ']') {
                return i + 1;
            }
            if (text.startsWith("<!--", i)) {
                i = skipPast(i + 4, "-->");
            } else if (text.startsWith("<?", i)) {
                i = skipPast(i + 2, "?>");
            } else if (c == '<') {
                i = closingBracket(i + 1, false, false);
            } else if (c == '%') {
                int semi = text.indexOf(';', i);
                int end = semi < 0 ? text.length() : semi + 1;
                references(i, end, true);
                i = end;
            } else {
                i++;
            }
        }
        return i;
    }


    /** Records the references in text[from, to) that nothing expands. */
    private void references(int from, int to, boolean parameter) {
        Matcher m = REFERENCE.matcher(text).region(from, to);
        while (m.find() && found.size() < MAX_REPORTS) {
            boolean isParameter = text.charAt(m.start()) == '%';
            if (isParameter != parameter) {
                continue;
            }
            String name = m.group(1);
            if (!parameter && (name.startsWith("#") || PREDEFINED.contains(name))) {
                continue;
            }
            String key = parameter ? "%" + name : name;
            if (!expands(key, new HashSet<>())) {
                int[] pos = positions.of(m.start());
                found.add(new Reference(name, parameter, external.contains(key), pos[0], pos[1]));
            }
        }
    }

    /** Whether an internal declaration expands {@code key}, and everything its replacement text refers to. */
    private boolean expands(String key, Set<String> visiting) {
        String value = internal.get(key);
        if (value == null) {
            return false;
        }
        if (!visiting.add(key)) {
            return true; // a recursive entity is the parser's error, not ours
        }
        Matcher m = REFERENCE.matcher(value);
        while (m.find()) {
            String name = m.group(1);
            boolean isParameter = value.charAt(m.start()) == '%';
            if (!isParameter && (name.startsWith("#") || PREDEFINED.contains(name))) {
                continue;
            }
            if (!expands(isParameter ? "%" + name : name, visiting)) {
                return false;
            }
        }
        return true;
    }
}
