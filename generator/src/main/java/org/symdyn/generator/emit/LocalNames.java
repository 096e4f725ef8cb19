package org.symdyn.generator.emit;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Temporaries renumbered within each method: the expression graph names a temporary t<i>N</i> by its place in the
 * whole derivation, so a large class declared tens of thousands of distinct local names (the sample quadruped with
 * its derivatives: 58,455). With debugging information, which a user's build compiles with by default (Maven's
 * {@code -g}), every distinct local name is a constant of the class file, and past 65,535 constants javac refuses the
 * class ("too many constants"). Numbered from t0 in each method, in order of first appearance, the names repeat
 * from method to method and the class holds as many as its largest method declares. Temporaries never cross a
 * method (chunks pass values through the workspace), so the renaming is local to each method's text.
 *
 * <p>Works on JavaPoet's output with a four-space indent: a method starts at its signature's first line, indented by
 * exactly four spaces, and ends at the next line that is exactly "    }".
 */
public final class LocalNames {
    private static final Pattern TEMPORARY = Pattern.compile("(?<![\\w$])t(\\d+)(?![\\w$])");

    private LocalNames() {
    }

    /** {@code source} with the temporaries of each method renumbered from t0. */
    public static String perMethod(String source) {
        StringBuilder out = new StringBuilder(source.length());
        Map<String, String> names = null;
        int from = 0;
        while (from < source.length()) {
            int end = source.indexOf('\n', from);
            end = end < 0 ? source.length() : end + 1;
            String line = source.substring(from, end);
            from = end;
            String text = line.endsWith("\n") ? line.substring(0, line.length() - 1) : line;
            if (names == null) {
                if (startsMethod(text)) {
                    names = new HashMap<>();
                    out.append(rename(line, names));
                } else {
                    out.append(line);
                }
            } else {
                out.append(rename(line, names));
                if (text.equals("    }")) {
                    names = null;
                }
            }
        }
        return out.toString();
    }

    /**
     * A line indented by exactly four spaces that starts a method (its signature, which JavaPoet may wrap: it has a
     * parenthesis, no assignment and does not end a statement) or a static initialiser.
     */
    private static boolean startsMethod(String text) {
        if (!text.startsWith("    ") || text.startsWith("     ")) {
            return false;
        }
        return text.equals("    static {") || text.indexOf('(') >= 0 && !text.contains(" = ") && !text.endsWith(";")
                && !text.startsWith("    @") && !text.startsWith("    /") && !text.startsWith("    *");
    }

    private static String rename(String line, Map<String, String> names) {
        if (line.indexOf('t') < 0) {
            return line;
        }
        Matcher m = TEMPORARY.matcher(line);
        if (!m.find()) {
            return line;
        }
        StringBuilder sb = new StringBuilder(line.length());
        int last = 0;
        do {
            sb.append(line, last, m.start());
            sb.append(names.computeIfAbsent(m.group(), k -> "t" + names.size()));
            last = m.end();
        } while (m.find());
        return sb.append(line, last, line.length()).toString();
    }
}
