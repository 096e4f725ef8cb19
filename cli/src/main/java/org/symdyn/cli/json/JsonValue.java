package org.symdyn.cli.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable JSON value: object, array, string, number, boolean or null, with the position in its source
 * document where it starts ({@link Position#NONE} for values built in code).
 *
 * <p>Equality ({@code equals}/{@code hashCode}) compares contents only, never positions, so that a parsed document
 * equals the tree it was written from. Numbers compare with {@link Double#compare}, so {@code -0.0} differs from
 * {@code 0.0}; numbers are always finite (JSON has no NaN or infinities).
 */
public sealed interface JsonValue
        permits JsonValue.ObjectValue, JsonValue.ArrayValue, JsonValue.StringValue, JsonValue.NumberValue,
        JsonValue.BooleanValue, JsonValue.NullValue {

    /** Where the value starts in its document: 1-based line and column (in code points); 0, 0 when unknown. */
    Position position();

    /** "object", "array", "string", "number", "boolean" or "null", for error messages. */
    String typeName();

    /** The type with its article, for "must be ..., not an array": "an object", "a string", "null". */
    default String typeWithArticle() {
        String type = typeName();
        return switch (type) {
            case "array", "object" -> "an " + type;
            case "null" -> "null";
            default -> "a " + type;
        };
    }

    /**
     * A 1-based line and column in a document. Columns count Unicode code points, so a character outside the
     * Basic Multilingual Plane counts once.
     */
    record Position(int line, int column) {
        /** The position of a value built in code. */
        public static final Position NONE = new Position(0, 0);

        /** {@code [line,col]}, the bracketed part of a {@code path:[line,col] message} diagnostic. */
        @Override
        public String toString() {
            return "[" + line + "," + column + "]";
        }
    }

    /**
     * A JSON object: members in document (or insertion) order. Keys are unique.
     *
     * @param members  the members, an unmodifiable insertion-ordered map
     * @param position where the opening brace is
     */
    record ObjectValue(Map<String, JsonValue> members, Position position) implements JsonValue {
        public ObjectValue {
            members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
            Objects.requireNonNull(position, "position");
        }

        /** The member of that key, or null when absent. */
        public JsonValue get(String key) {
            return members.get(key);
        }

        @Override
        public String typeName() {
            return "object";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ObjectValue other && members.equals(other.members);
        }

        @Override
        public int hashCode() {
            return members.hashCode();
        }
    }

    /**
     * A JSON array.
     *
     * @param elements the elements, an unmodifiable list
     * @param position where the opening bracket is
     */
    record ArrayValue(List<JsonValue> elements, Position position) implements JsonValue {
        public ArrayValue {
            elements = List.copyOf(elements);
            Objects.requireNonNull(position, "position");
        }

        /** The number of elements. */
        public int size() {
            return elements.size();
        }

        /** The element at {@code index} (0-based). */
        public JsonValue get(int index) {
            return elements.get(index);
        }

        @Override
        public String typeName() {
            return "array";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ArrayValue other && elements.equals(other.elements);
        }

        @Override
        public int hashCode() {
            return elements.hashCode();
        }
    }

    /**
     * A JSON string (any Java string; the writer escapes what JSON requires).
     *
     * @param value    the decoded text
     * @param position where the opening quote is
     */
    record StringValue(String value, Position position) implements JsonValue {
        public StringValue {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(position, "position");
        }

        @Override
        public String typeName() {
            return "string";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StringValue other && value.equals(other.value);
        }

        @Override
        public int hashCode() {
            return value.hashCode();
        }
    }

    /**
     * A JSON number, held as the nearest double.
     *
     * @param value    a finite double
     * @param position where the number's first character is
     */
    record NumberValue(double value, Position position) implements JsonValue {
        /**
         * @param value    a finite double
         * @param position where the number's first character is
         * @throws IllegalArgumentException if the value is NaN or infinite, which JSON cannot express
         */
        public NumberValue {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("JSON numbers are finite, not " + value);
            }
            Objects.requireNonNull(position, "position");
        }

        @Override
        public String typeName() {
            return "number";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof NumberValue other && Double.compare(value, other.value) == 0;
        }

        @Override
        public int hashCode() {
            return Double.hashCode(value);
        }
    }

    /**
     * JSON {@code true} or {@code false}.
     *
     * @param value    the truth value
     * @param position where the literal starts
     */
    record BooleanValue(boolean value, Position position) implements JsonValue {
        public BooleanValue {
            Objects.requireNonNull(position, "position");
        }

        @Override
        public String typeName() {
            return "boolean";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BooleanValue other && value == other.value;
        }

        @Override
        public int hashCode() {
            return Boolean.hashCode(value);
        }
    }

    /**
     * JSON {@code null}.
     *
     * @param position where the literal starts
     */
    record NullValue(Position position) implements JsonValue {
        public NullValue {
            Objects.requireNonNull(position, "position");
        }

        @Override
        public String typeName() {
            return "null";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof NullValue;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    // ---- factories for values built in code (position NONE) ----

    /** A number built in code. */
    static NumberValue of(double value) {
        return new NumberValue(value, Position.NONE);
    }

    /** A string built in code. */
    static StringValue of(String value) {
        return new StringValue(value, Position.NONE);
    }

    /** A boolean built in code. */
    static BooleanValue of(boolean value) {
        return new BooleanValue(value, Position.NONE);
    }

    /** The null literal, built in code. */
    static NullValue nullValue() {
        return new NullValue(Position.NONE);
    }

    /** An array of the given values. */
    static ArrayValue array(List<? extends JsonValue> elements) {
        return new ArrayValue(new ArrayList<>(elements), Position.NONE);
    }

    /** An array of numbers. */
    static ArrayValue array(double... values) {
        List<JsonValue> list = new ArrayList<>(values.length);
        for (double v : values) {
            list.add(of(v));
        }
        return new ArrayValue(list, Position.NONE);
    }

    /** An array of strings. */
    static ArrayValue strings(List<String> values) {
        List<JsonValue> list = new ArrayList<>(values.size());
        for (String v : values) {
            list.add(of(v));
        }
        return new ArrayValue(list, Position.NONE);
    }

    /** An object with the given members, in the map's iteration order. */
    static ObjectValue object(Map<String, ? extends JsonValue> members) {
        return new ObjectValue(new LinkedHashMap<>(members), Position.NONE);
    }

    /** A builder for an object whose members keep the order in which they are put. */
    static ObjectBuilder objectBuilder() {
        return new ObjectBuilder();
    }

    /** Collects the members of an object in insertion order. */
    final class ObjectBuilder {
        private final LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();

        private ObjectBuilder() {
        }

        /**
         * Adds a member.
         *
         * @throws IllegalArgumentException if the key is already present (JSON keys here are unique)
         */
        public ObjectBuilder put(String key, JsonValue value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            if (members.putIfAbsent(key, value) != null) {
                throw new IllegalArgumentException("duplicate key '" + key + "'");
            }
            return this;
        }

        /** Adds a string member. */
        public ObjectBuilder put(String key, String value) {
            return put(key, of(value));
        }

        /** Adds a number member. */
        public ObjectBuilder put(String key, double value) {
            return put(key, of(value));
        }

        /** The object, members in insertion order. */
        public ObjectValue build() {
            return new ObjectValue(members, Position.NONE);
        }
    }
}
