package org.symdyn.cli.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.NumberValue;

class JsonWriterTest {

    @Test
    void prettyLayoutKeepsNumericArraysOnOneLine() {
        JsonValue v = JsonValue.objectBuilder()
                .put("name", "p")
                .put("n", 7)
                .put("q", JsonValue.array(0.5, -1, 1e-20))
                .put("H", JsonValue.array(List.of(JsonValue.array(1, 2), JsonValue.array(3, 4))))
                .put("names", JsonValue.strings(List.of("a", "b")))
                .put("empty", JsonValue.array(List.of()))
                .put("nothing", JsonValue.object(Map.of()))
                .put("flags", JsonValue.array(List.of(JsonValue.of(true), JsonValue.nullValue())))
                .build();
        String expected = "{\n"
                + "  \"name\": \"p\",\n"
                + "  \"n\": 7,\n"
                + "  \"q\": [0.5, -1, 1.0E-20],\n"
                + "  \"H\": [\n"
                + "    [1, 2],\n"
                + "    [3, 4]\n"
                + "  ],\n"
                + "  \"names\": [\n"
                + "    \"a\",\n"
                + "    \"b\"\n"
                + "  ],\n"
                + "  \"empty\": [],\n"
                + "  \"nothing\": {},\n"
                + "  \"flags\": [\n"
                + "    true,\n"
                + "    null\n"
                + "  ]\n"
                + "}";
        assertEquals(expected, JsonWriter.toPrettyString(v));
        assertEquals("{\"name\":\"p\",\"n\":7,\"q\":[0.5,-1,1.0E-20],\"H\":[[1,2],[3,4]],\"names\":[\"a\",\"b\"],"
                + "\"empty\":[],\"nothing\":{},\"flags\":[true,null]}", JsonWriter.toCompactString(v));
    }

    @Test
    void numberFormatting() {
        assertEquals("0", JsonWriter.formatNumber(0.0));
        assertEquals("-0.0", JsonWriter.formatNumber(-0.0));
        assertEquals("42", JsonWriter.formatNumber(42));
        assertEquals("-3", JsonWriter.formatNumber(-3));
        assertEquals("999999999999999", JsonWriter.formatNumber(999999999999999.0));
        assertEquals("1.0E15", JsonWriter.formatNumber(1e15));
        assertEquals("0.1", JsonWriter.formatNumber(0.1));
        assertEquals("4.9E-324", JsonWriter.formatNumber(Double.MIN_VALUE));
        assertEquals("1.7976931348623157E308", JsonWriter.formatNumber(Double.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> JsonWriter.formatNumber(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> JsonWriter.formatNumber(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> JsonValue.of(Double.NEGATIVE_INFINITY));
    }

    @Test
    void doublesRoundTripExactly() throws JsonException {
        Random random = new Random(20240611L);
        List<Double> values = new ArrayList<>(List.of(0.0, -0.0, 1.0, -1.0, 0.1, 1.0 / 3, Math.PI, -Math.E,
                Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE,
                1e15, 1e15 - 1, 9007199254740993.0, 123456789.0123, 1e-300, 2.5e-308, 5e-324 * 3));
        for (int i = 0; i < 5000; i++) {
            values.add(Double.longBitsToDouble(random.nextLong())); // every exponent
            values.add(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20));
        }
        values.removeIf(d -> !Double.isFinite(d));
        double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
        JsonValue tree = JsonValue.objectBuilder().put("x", JsonValue.array(array)).build();
        for (JsonWriter.Style style : JsonWriter.Style.values()) {
            String text = new JsonWriter(style, false).write(tree);
            ArrayValue back = (ArrayValue) ((JsonValue.ObjectValue) JsonReader.parse("rt", text)).get("x");
            assertEquals(array.length, back.size());
            for (int i = 0; i < array.length; i++) {
                double got = ((NumberValue) back.get(i)).value();
                assertEquals(Double.doubleToRawLongBits(array[i]), Double.doubleToRawLongBits(got),
                        "value " + array[i] + " came back as " + got);
            }
            assertEquals(tree, JsonReader.parse("rt", text));
        }
    }

    @Test
    void stringsAreEscapedAndRoundTrip() throws JsonException {
        String nasty = "quote\" backslash\\ slash/ \b\f\n\r\t \u0000\u001f\u007f é € \uD83D\uDE00 中";
        Map<String, JsonValue> members = new LinkedHashMap<>();
        members.put(nasty, JsonValue.of(nasty));
        JsonValue tree = JsonValue.object(members);
        for (boolean ascii : new boolean[] {false, true}) {
            for (JsonWriter.Style style : JsonWriter.Style.values()) {
                String text = new JsonWriter(style, ascii).write(tree);
                assertEquals(tree, JsonReader.parse("rt", text), text);
                if (ascii) {
                    assertEquals(true, text.chars().allMatch(c -> c >= 0x20 && c < 0x7f || c == '\n'), text);
                }
            }
        }
        assertEquals("\"a\\\"b\\\\c\\n\\u0001\\u007f\\u00e9\\ud83d\\ude00\"",
                new JsonWriter(JsonWriter.Style.COMPACT, true).write(JsonValue.of("a\"b\\c\n\u0001\u007fé\uD83D\uDE00")));
        assertEquals("\"é\"", JsonWriter.toCompactString(JsonValue.of("é")));
    }

    @Test
    void nestedStructuresRoundTrip() throws JsonException {
        JsonValue tree = JsonValue.objectBuilder()
                .put("results", JsonValue.array(List.of(
                        JsonValue.objectBuilder()
                                .put("H", JsonValue.array(List.of(JsonValue.array(0.1, 0.2), JsonValue.array(0.3, 0.4))))
                                .put("poses", JsonValue.objectBuilder()
                                        .put("link", JsonValue.objectBuilder().put("p", JsonValue.array(1, 2, 3)).build())
                                        .build())
                                .build(),
                        JsonValue.objectBuilder().build())))
                .put("ok", JsonValue.of(false))
                .build();
        assertEquals(tree, JsonReader.parse("rt", JsonWriter.toPrettyString(tree)));
        assertEquals(tree, JsonReader.parse("rt", JsonWriter.toCompactString(tree)));
        assertThrows(IllegalArgumentException.class, () -> JsonValue.objectBuilder().put("a", 1).put("a", 2));
    }
}
