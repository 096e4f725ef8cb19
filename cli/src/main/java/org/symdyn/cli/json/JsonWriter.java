package org.symdyn.cli.json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

/**
 * Prints a {@link JsonValue} tree as JSON text, pretty (two-space indentation) or compact.
 *
 * <p>Pretty printing puts each object member and each array element on its own line, except that an array of
 * numbers only (a vector, or one row of a matrix) stays on one line: {@code "q": [0.1, 0.2]}. Output has no
 * trailing newline.
 *
 * <p>Numbers: an integral value of magnitude below 10^15 prints without a fraction ({@code 7}); any other value
 * prints as {@link Double#toString(double)} ({@code 0.1}, {@code 1.0E-20}), which is valid JSON and reads back
 * as exactly the same double; {@code -0.0} keeps its sign. {@link JsonValue.NumberValue} cannot hold NaN or
 * infinities, so the output is always valid JSON.
 *
 * <p>Strings: {@code "} and {@code \} and control characters are escaped ({@code \n}, {@code \t}, ... or
 * {@code \\u00XX}); with {@code asciiOnly} every character beyond U+007E is written as a {@code \\uXXXX}
 * escape too (surrogate pairs as two escapes), so that the text survives any console encoding.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class JsonWriter {
    /** Layout of the output. */
    public enum Style {
        /** Two-space indentation, numeric arrays on one line. */
        PRETTY,
        /** No whitespace at all. */
        COMPACT
    }

    private static final double INTEGRAL_LIMIT = 1e15;

    private final Style style;
    private final boolean asciiOnly;

    /**
     * @param style     pretty or compact
     * @param asciiOnly whether to escape every non-ASCII character
     */
    public JsonWriter(Style style, boolean asciiOnly) {
        this.style = style;
        this.asciiOnly = asciiOnly;
    }

    /** Pretty-printed text of the value, non-ASCII characters kept as they are. */
    public static String toPrettyString(JsonValue value) {
        return new JsonWriter(Style.PRETTY, false).write(value);
    }

    /** Compact text of the value, non-ASCII characters kept as they are. */
    public static String toCompactString(JsonValue value) {
        return new JsonWriter(Style.COMPACT, false).write(value);
    }

    /** The text of the value. */
    public String write(JsonValue value) {
        StringBuilder sb = new StringBuilder();
        try {
            write(value, sb);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringBuilder does not throw
        }
        return sb.toString();
    }

    /** Appends the text of the value to {@code out}. */
    public void write(JsonValue value, Appendable out) throws IOException {
        writeValue(value, out, 0);
    }

    /**
     * The JSON text of a finite double: integral values below 10^15 in magnitude without a fraction, others as
     * {@link Double#toString(double)}; {@code Double.parseDouble} of the result gives back the same double.
     *
     * @throws IllegalArgumentException for NaN and infinities, which JSON cannot express
     */
    public static String formatNumber(double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("JSON cannot express " + value);
        }
        if (value == Math.rint(value) && Math.abs(value) < INTEGRAL_LIMIT
                && !(value == 0 && Double.doubleToRawLongBits(value) != 0)) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    private void writeValue(JsonValue value, Appendable out, int indent) throws IOException {
        if (value instanceof JsonValue.ObjectValue o) {
            writeObject(o, out, indent);
        } else if (value instanceof JsonValue.ArrayValue a) {
            writeArray(a, out, indent);
        } else if (value instanceof JsonValue.StringValue s) {
            writeString(s.value(), out);
        } else if (value instanceof JsonValue.NumberValue n) {
            out.append(formatNumber(n.value()));
        } else if (value instanceof JsonValue.BooleanValue b) {
            out.append(b.value() ? "true" : "false");
        } else {
            out.append("null");
        }
    }

    private void writeObject(JsonValue.ObjectValue object, Appendable out, int indent) throws IOException {
        if (object.members().isEmpty()) {
            out.append("{}");
            return;
        }
        out.append('{');
        Iterator<Map.Entry<String, JsonValue>> it = object.members().entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonValue> member = it.next();
            newline(out, indent + 1);
            writeString(member.getKey(), out);
            out.append(style == Style.PRETTY ? ": " : ":");
            writeValue(member.getValue(), out, indent + 1);
            if (it.hasNext()) {
                out.append(',');
            }
        }
        newline(out, indent);
        out.append('}');
    }

    private void writeArray(JsonValue.ArrayValue array, Appendable out, int indent) throws IOException {
        if (array.elements().isEmpty()) {
            out.append("[]");
            return;
        }
        boolean inline = style == Style.COMPACT || allNumbers(array);
        String separator = style == Style.PRETTY ? ", " : ",";
        out.append('[');
        for (int i = 0; i < array.size(); i++) {
            if (inline) {
                if (i > 0) {
                    out.append(separator);
                }
            } else {
                if (i > 0) {
                    out.append(',');
                }
                newline(out, indent + 1);
            }
            writeValue(array.get(i), out, indent + 1);
        }
        if (!inline) {
            newline(out, indent);
        }
        out.append(']');
    }

    private static boolean allNumbers(JsonValue.ArrayValue array) {
        for (JsonValue e : array.elements()) {
            if (!(e instanceof JsonValue.NumberValue)) {
                return false;
            }
        }
        return true;
    }

    private void newline(Appendable out, int indent) throws IOException {
        if (style == Style.PRETTY) {
            out.append('\n');
            for (int i = 0; i < indent; i++) {
                out.append("  ");
            }
        }
    }

    private void writeString(String s, Appendable out) throws IOException {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean loneSurrogate = Character.isSurrogate(c) && !isPairedSurrogate(s, i);
                    if (c < 0x20 || c == 0x7f || loneSurrogate || (asciiOnly && c > 0x7e)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static boolean isPairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
