package org.symdyn.io;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.symdyn.model.Diagnostic;
import org.symdyn.model.SourceLocation;

/**
 * Reads attribute values and collects the problems found, each at its element's start tag. Numbers are read
 * strictly: a decimal with optional sign, fraction and exponent (as URDF files write them), nothing Java's
 * {@code Double.parseDouble} would also take (hexadecimal, "1d", "Infinity"), and never a non-finite value.
 *
 * <p>Methods that fail report the problem and return a harmless placeholder, so that reading can go on and find
 * the next problem; callers that must not use a placeholder compare {@link #errorCount()} before and after.
 */
public final class ValueReader {
    // Possessive quantifiers: no backtracking, so a long malformed token costs linear time.
    private static final Pattern DECIMAL = Pattern.compile("[+-]?+(\\d++\\.?+\\d*+|\\.\\d++)([eE][+-]?+\\d++)?+");
    private static final Pattern NON_FINITE = Pattern.compile("[+-]?(nan|inf|infinity)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SPACE = Pattern.compile("\\s+");

    private final String path;
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private int errors;

    /** @param path the file's name as messages print it */
    public ValueReader(String path) {
        this.path = path;
    }

    /** Where {@code e}'s start tag is in this file. */
    public SourceLocation location(XmlElement e) {
        return new SourceLocation(path, e.line(), e.column());
    }

    /** Reports an error at {@code e}'s start tag. */
    public void error(XmlElement e, String message) {
        errors++;
        diagnostics.add(Diagnostic.error(location(e), message));
    }

    /** Reports an error at a position of this file found outside the element tree. */
    public void error(SourceLocation at, String message) {
        errors++;
        diagnostics.add(Diagnostic.error(at, message));
    }

    /** Reports a problem found outside the element tree (the XML layer's), as the error or warning it is. */
    public void report(Diagnostic d) {
        if (d.isError()) {
            error(d.location(), d.message());
        } else {
            diagnostics.add(d);
        }
    }

    /** Reports a warning at {@code e}'s start tag. */
    public void warning(XmlElement e, String message) {
        diagnostics.add(Diagnostic.warning(location(e), message));
    }

    /** Errors reported so far. */
    public int errorCount() {
        return errors;
    }

    /** Every problem reported, in the order reported (the live list). */
    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /** The attribute's value; if it is absent (or blank), reports {@code missingMessage} and returns null. */
    public String require(XmlElement e, String attribute, String missingMessage) {
        String v = e.attribute(attribute);
        if (v == null || v.isBlank()) {
            // present but blank: say so ("<robot name=\"\">" read as "has no 'name' attribute", a helper's finding)
            String absent = "has no '" + attribute + "' attribute";
            error(e, v == null ? missingMessage : missingMessage.contains(absent)
                    ? missingMessage.replace(absent, "has an empty '" + attribute + "' attribute")
                    : missingMessage + " (its '" + attribute + "' attribute is empty)");
            return null;
        }
        return v;
    }

    /**
     * {@code n} numbers from a whitespace-separated attribute.
     *
     * @param dflt the value when the attribute is absent, or null if it is required
     * @param what how messages name the attribute, e.g. "joint 'j1': origin xyz"
     * @return the numbers, the default, or (after reporting the problem) zeros
     */
    public double[] vector(XmlElement e, String attribute, int n, double[] dflt, String what) {
        String raw = e.attribute(attribute);
        if (raw == null) {
            if (dflt == null) {
                error(e, what + " is missing");
                return new double[n];
            }
            return dflt.clone();
        }
        return numbers(e, raw, n, what);
    }

    /**
     * {@code n} numbers from whitespace-separated text (an attribute's value or an element's character data), read
     * strictly as the class comment says; problems are reported at {@code e}.
     *
     * @param what how messages name the value
     * @return the numbers, or (after reporting the problem) zeros
     */
    public double[] numbers(XmlElement e, String raw, int n, String what) {
        String trimmed = raw.trim();
        String[] tokens = trimmed.isEmpty() ? new String[0] : SPACE.split(trimmed);
        if (tokens.length != n) {
            error(e, what + " '" + Messages.cut(raw) + "' needs " + n + (n == 1 ? " number" : " numbers"));
            return new double[n];
        }
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            String problem = numberProblem(tokens[i]);
            if (problem != null) {
                error(e, what + " '" + Messages.cut(raw) + "'" + (n == 1 ? "" : ": '" + Messages.cut(tokens[i]) + "'")
                        + problem);
                return new double[n];
            }
            out[i] = Double.parseDouble(tokens[i]);
        }
        return out;
    }

    /** One number; {@code dflt} when absent, NaN (after reporting) when required and absent or malformed. */
    public double number(XmlElement e, String attribute, double dflt, boolean required, String what) {
        if (!e.has(attribute) && !required) {
            return dflt;
        }
        int before = errors;
        double v = vector(e, attribute, 1, null, what)[0];
        return errors > before ? Double.NaN : v;
    }

    /**
     * One number of the attribute {@code attribute} in namespace {@code namespaceUri}; {@code dflt} when absent, NaN
     * (after reporting) when malformed.
     */
    public double number(XmlElement e, String namespaceUri, String attribute, double dflt, String what) {
        String raw = e.attribute(namespaceUri, attribute);
        if (raw == null) {
            return dflt;
        }
        int before = errors;
        double v = numbers(e, raw, 1, what)[0];
        return errors > before ? Double.NaN : v;
    }

    /** An xsd:boolean ("true", "false", "1", "0"); {@code dflt} when absent. */
    public boolean bool(XmlElement e, String attribute, boolean dflt, String what) {
        String raw = e.attribute(attribute);
        if (raw == null) {
            return dflt;
        }
        switch (raw.trim()) {
            case "true", "1":
                return true;
            case "false", "0":
                return false;
            default:
                error(e, what + " '" + Messages.cut(raw) + "' is not a boolean (true or false)");
                return dflt;
        }
    }

    /**
     * The first child element of that (un-namespaced) name, or null; a repeated child is a warning, because URDF
     * readers use the first and silently dropping the others would hide an editing mistake.
     */
    public XmlElement single(XmlElement parent, String childName, String owner) {
        List<XmlElement> list = parent.children(childName);
        if (list.isEmpty()) {
            return null;
        }
        for (int i = 1; i < list.size(); i++) {
            warning(list.get(i), owner + ": a second <" + childName + "> is ignored (the first one at line "
                    + list.get(0).line() + " is used)");
        }
        return list.get(0);
    }

    /** Null if the token is a finite decimal number, else the end of a message saying what is wrong. */
    private static String numberProblem(String token) {
        if (NON_FINITE.matcher(token).matches()) {
            return " is not a finite number";
        }
        if (!DECIMAL.matcher(token).matches()) {
            return " is not a number";
        }
        if (!Double.isFinite(Double.parseDouble(token))) {
            return " is not a finite number (out of range)";
        }
        return null;
    }
}
