package org.symdyn.io.sdf;

import java.util.regex.Pattern;
import org.symdyn.io.Messages;
import org.symdyn.io.ValueReader;
import org.symdyn.io.XmlElement;

/**
 * SDFormat values are written as the character data of an element ({@code <mass>2.5</mass>}); this reads them
 * with the strict number rules of {@link ValueReader}, each problem reported at the element holding the text.
 */
final class SdfText {
    private static final Pattern SPACE = Pattern.compile("\\s+");

    private SdfText() {
    }

    /** The element's text, trimmed; null when the element is absent. */
    static String string(XmlElement e) {
        return e == null ? null : e.text().trim();
    }

    /** The text of the first child of that name, trimmed; null when there is no such child. */
    static String string(XmlElement parent, String child) {
        return parent == null ? null : string(first(parent, child));
    }

    /** The first child of that name, or null. */
    static XmlElement first(XmlElement parent, String child) {
        if (parent == null) {
            return null;
        }
        for (XmlElement c : parent.children()) {
            if (c.is(child)) {
                return c;
            }
        }
        return null;
    }

    /** The number written in the first child of that name; {@code dflt} when absent, 0 after an error. */
    static double number(ValueReader values, XmlElement parent, String child, double dflt, String what) {
        XmlElement e = first(parent, child);
        if (e == null) {
            return dflt;
        }
        return values.numbers(e, e.text(), 1, what)[0];
    }

    /** {@code n} numbers written in {@code e}'s text; zeros after an error. */
    static double[] numbers(ValueReader values, XmlElement e, int n, String what) {
        return values.numbers(e, e.text(), n, what);
    }

    /** How many whitespace-separated tokens the element's text has. */
    static int tokenCount(XmlElement e) {
        String t = e.text().trim();
        return t.isEmpty() ? 0 : SPACE.split(t).length;
    }

    /** An xsd:boolean in the first child of that name ("true", "false", "1", "0"); {@code dflt} when absent. */
    static boolean bool(ValueReader values, XmlElement parent, String child, boolean dflt, String what) {
        XmlElement e = first(parent, child);
        if (e == null) {
            return dflt;
        }
        switch (e.text().trim()) {
            case "true", "1":
                return true;
            case "false", "0":
                return false;
            default:
                values.error(e, what + " '" + Messages.cut(e.text().trim()) + "' is not a boolean (true or false)");
                return dflt;
        }
    }

    /** A positive integer in the first child of that name; {@code dflt} when absent or after an error. */
    static int count(ValueReader values, XmlElement parent, String child, int dflt, String what) {
        XmlElement e = first(parent, child);
        if (e == null) {
            return dflt;
        }
        String t = e.text().trim();
        try {
            int n = Integer.parseInt(t);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        values.error(e, what + " '" + Messages.cut(t) + "' is not a positive integer");
        return dflt;
    }
}
