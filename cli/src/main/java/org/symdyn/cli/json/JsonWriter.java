package org.symdyn.cli.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * Prints a {@link JsonValue} tree as JSON text through Jackson's {@link JsonGenerator}, pretty (two-space
 * indentation) or compact.
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
 * <p>Strings are escaped by Jackson ({@code "}, {@code \}, control characters); with {@code asciiOnly} every
 * character beyond U+007E is written as a lower-case {@code \\uXXXX} escape too (surrogate pairs as two escapes),
 * so that the text survives any console encoding.
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

    /** Jackson's escapes of ASCII, plus DEL, so that ASCII-only output is printable ASCII. */
    private static final CharacterEscapes ESCAPE_DEL = new CharacterEscapes() {
        private static final long serialVersionUID = 1L;
        private final int[] ascii = asciiEscapes();

        private static int[] asciiEscapes() {
            int[] codes = CharacterEscapes.standardAsciiEscapesForJSON();
            codes[0x7f] = CharacterEscapes.ESCAPE_STANDARD;
            return codes;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public com.fasterxml.jackson.core.SerializableString getEscapeSequence(int ch) {
            return null;
        }
    };

    private final Style style;
    private final boolean asciiOnly;
    private final JsonFactory factory;

    /**
     * @param style     pretty or compact
     * @param asciiOnly whether to escape every non-ASCII character
     */
    public JsonWriter(Style style, boolean asciiOnly) {
        this.style = style;
        this.asciiOnly = asciiOnly;
        this.factory = JsonFactory.builder()
                .configure(JsonWriteFeature.ESCAPE_NON_ASCII, asciiOnly)
                .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
                .build();
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
        StringWriter out = new StringWriter();
        try (JsonGenerator g = factory.createGenerator(out)) {
            Layout layout = null;
            if (style == Style.PRETTY) {
                layout = new Layout();
                g.setPrettyPrinter(layout);
            }
            if (asciiOnly) {
                g.setCharacterEscapes(ESCAPE_DEL);
            }
            writeValue(g, layout, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not throw
        }
        return out.toString();
    }

    /** Appends the text of the value to {@code out}. */
    public void write(JsonValue value, Appendable out) throws IOException {
        out.append(write(value));
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

    private static void writeValue(JsonGenerator g, Layout layout, JsonValue value) throws IOException {
        if (value instanceof JsonValue.ObjectValue o) {
            g.writeStartObject();
            for (Map.Entry<String, JsonValue> member : o.members().entrySet()) {
                g.writeFieldName(member.getKey());
                writeValue(g, layout, member.getValue());
            }
            g.writeEndObject();
        } else if (value instanceof JsonValue.ArrayValue a) {
            if (layout != null) {
                layout.nextArrayInline(a.elements().stream().allMatch(e -> e instanceof JsonValue.NumberValue));
            }
            g.writeStartArray();
            for (JsonValue e : a.elements()) {
                writeValue(g, layout, e);
            }
            g.writeEndArray();
        } else if (value instanceof JsonValue.StringValue s) {
            g.writeString(s.value());
        } else if (value instanceof JsonValue.NumberValue n) {
            g.writeNumber(formatNumber(n.value()));
        } else if (value instanceof JsonValue.BooleanValue b) {
            g.writeBoolean(b.value());
        } else {
            g.writeNull();
        }
    }

    /**
     * The pretty layout: two spaces per level, {@code "key": value}, each member and element on its own line except
     * in an array of numbers ({@code [1, 2, 3]}); empty arrays and objects as {@code []} and {@code {}}.
     */
    private static final class Layout implements PrettyPrinter {
        private final Deque<Boolean> inline = new ArrayDeque<>();
        private boolean nextInline;
        private int level;

        /** Whether the array about to start stays on one line. */
        void nextArrayInline(boolean value) {
            nextInline = value;
        }

        private void newline(JsonGenerator g) throws IOException {
            g.writeRaw('\n');
            for (int i = 0; i < level; i++) {
                g.writeRaw("  ");
            }
        }

        @Override
        public void writeRootValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw('\n');
        }

        @Override
        public void writeStartObject(JsonGenerator g) throws IOException {
            g.writeRaw('{');
            level++;
        }

        @Override
        public void beforeObjectEntries(JsonGenerator g) throws IOException {
            newline(g);
        }

        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }

        @Override
        public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
            g.writeRaw(',');
            newline(g);
        }

        @Override
        public void writeEndObject(JsonGenerator g, int entries) throws IOException {
            level--;
            if (entries > 0) {
                newline(g);
            }
            g.writeRaw('}');
        }

        @Override
        public void writeStartArray(JsonGenerator g) throws IOException {
            inline.push(nextInline);
            nextInline = false;
            g.writeRaw('[');
            level++;
        }

        @Override
        public void beforeArrayValues(JsonGenerator g) throws IOException {
            if (!inline.peek()) {
                newline(g);
            }
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            if (inline.peek()) {
                g.writeRaw(", ");
            } else {
                g.writeRaw(',');
                newline(g);
            }
        }

        @Override
        public void writeEndArray(JsonGenerator g, int values) throws IOException {
            level--;
            if (!inline.pop() && values > 0) {
                newline(g);
            }
            g.writeRaw(']');
        }
    }
}
