package org.symdyn.cli.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.symdyn.cli.json.JsonValue.ArrayValue;
import org.symdyn.cli.json.JsonValue.NumberValue;
import org.symdyn.cli.json.JsonValue.ObjectValue;
import org.symdyn.cli.json.JsonValue.Position;
import org.symdyn.cli.json.JsonValue.StringValue;

class JsonReaderTest {

    private static JsonValue parse(String text) throws JsonException {
        return JsonReader.parse("doc.json", text);
    }

    private static JsonException failure(String text) {
        return assertThrows(JsonException.class, () -> parse(text), () -> "should be refused: " + text);
    }

    // ---- valid documents ----

    @Test
    void readsEveryKindOfValueWithPositions() throws JsonException {
        String text = "{\n"
                + "  \"name\": \"pendulum\",\n"
                + "  \"n\": 7,\n"
                + "  \"x\": [1.5, -2e3, 0, -0.0, 1E+2],\n"
                + "  \"ok\": true, \"no\": false, \"none\": null,\n"
                + "  \"empty\": {}, \"nothing\": []\n"
                + "}\n";
        ObjectValue root = assertInstanceOf(ObjectValue.class, parse(text));
        assertEquals(new Position(1, 1), root.position());
        assertEquals(List.of("name", "n", "x", "ok", "no", "none", "empty", "nothing"),
                List.copyOf(root.members().keySet()), "members keep document order");
        assertEquals("pendulum", ((StringValue) root.get("name")).value());
        assertEquals(new Position(2, 11), root.get("name").position());
        assertEquals(7.0, ((NumberValue) root.get("n")).value());
        assertEquals(new Position(3, 8), root.get("n").position());
        ArrayValue x = (ArrayValue) root.get("x");
        assertEquals(new Position(4, 8), x.position());
        assertEquals(5, x.size());
        assertEquals(1.5, ((NumberValue) x.get(0)).value());
        assertEquals(new Position(4, 9), x.get(0).position());
        assertEquals(-2000.0, ((NumberValue) x.get(1)).value());
        assertEquals(new Position(4, 14), x.get(1).position());
        assertEquals(0.0, ((NumberValue) x.get(2)).value());
        assertEquals(Double.doubleToRawLongBits(-0.0),
                Double.doubleToRawLongBits(((NumberValue) x.get(3)).value()));
        assertEquals(100.0, ((NumberValue) x.get(4)).value());
        assertEquals(JsonValue.of(true), root.get("ok"));
        assertEquals(new Position(5, 9), root.get("ok").position());
        assertEquals(JsonValue.of(false), root.get("no"));
        assertEquals(JsonValue.nullValue(), root.get("none"));
        assertEquals(new Position(5, 36), root.get("none").position());
        assertTrue(((ObjectValue) root.get("empty")).members().isEmpty());
        assertTrue(((ArrayValue) root.get("nothing")).elements().isEmpty());
    }

    @Test
    void topLevelScalarsAndWhitespace() throws JsonException {
        assertEquals(JsonValue.of(3.25), parse(" \t\r\n 3.25 \n"));
        assertEquals(JsonValue.of("a"), parse("\"a\""));
        assertEquals(JsonValue.nullValue(), parse("null"));
        assertEquals(JsonValue.of(true), parse("\uFEFFtrue"), "a byte order mark is skipped");
    }

    @Test
    void numbersFollowTheGrammarAndRoundToNearestDouble() throws JsonException {
        assertEquals(0.1, ((NumberValue) parse("0.1")).value());
        assertEquals(-0.5, ((NumberValue) parse("-0.5")).value());
        assertEquals(1.7976931348623157e308, ((NumberValue) parse("1.7976931348623157e308")).value());
        assertEquals(4.9e-324, ((NumberValue) parse("4.9e-324")).value());
        assertEquals(0.0, ((NumberValue) parse("1e-400")).value(), "underflow rounds to zero");
        assertEquals(12345678901234567890.0, ((NumberValue) parse("12345678901234567890")).value());
    }

    @Test
    void lineAndColumnCountingHandlesCrLfAndAstralCharacters() throws JsonException {
        ArrayValue a = (ArrayValue) parse("[\r\n1,\r2,\n3, \"\uD83D\uDE00\", 4]");
        assertEquals(new Position(2, 1), a.get(0).position());
        assertEquals(new Position(3, 1), a.get(1).position());
        assertEquals(new Position(4, 1), a.get(2).position());
        assertEquals(new Position(4, 4), a.get(3).position());
        assertEquals(new Position(4, 9), a.get(4).position(), "the emoji counts as one column");
    }

    @Test
    void escapesAndUnicode() throws JsonException {
        String s = ((StringValue) parse("\"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u20AC\\uD83D\\uDE00 \u00e9\u4e2d\"")).value();
        assertEquals("q\"\\/\b\f\n\r\t\u00e9\u20ac\uD83D\uDE00 \u00e9\u4e2d", s);
        assertEquals("\u0000", ((StringValue) parse("\"\\u0000\"")).value());
        assertEquals("\uFFFF", ((StringValue) parse("\"\\uffff\"")).value());
    }

    @Test
    void nestingUpToTheBoundIsAccepted() throws JsonException {
        int depth = JsonReader.DEFAULT_MAX_DEPTH;
        JsonValue v = parse("[".repeat(depth) + "]".repeat(depth));
        for (int i = 1; i < depth; i++) {
            v = ((ArrayValue) v).get(0);
        }
        assertTrue(((ArrayValue) v).elements().isEmpty());
        String objects = "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
        assertInstanceOf(ObjectValue.class, parse(objects));
    }

    @Test
    void nestingBeyondTheBoundIsRefusedWithoutStackOverflow() {
        int depth = JsonReader.DEFAULT_MAX_DEPTH;
        JsonException e = failure("[".repeat(depth + 1) + "]".repeat(depth + 1));
        assertEquals(1, e.line());
        assertEquals(depth + 1, e.column());
        assertTrue(e.detail().contains("nested deeper than " + depth), e.getMessage());
        // far beyond: still a clean error
        JsonException deep = failure("[{\"a\":".repeat(100_000));
        assertTrue(deep.detail().contains("nested deeper"), deep.getMessage());
        // a custom bound
        assertThrows(JsonException.class, () -> new JsonReader("x", "[[[]]]", 2).parse());
    }

    // ---- syntax errors: message and exact line/column ----

    @ParameterizedTest(name = "[{index}] {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // text (\n written as ⏎) | line | column | part of the message
        "``                  | 1 | 1 | empty document",
        "`   ⏎  `            | 2 | 3 | empty document",
        "`{`                 | 1 | 2 | unexpected end of input",
        "`[1, 2`             | 1 | 6 | expected ',' or ']'",
        "`[1 2]`             | 1 | 4 | expected ',' or ']'",
        "`[1,]`              | 1 | 4 | trailing comma before ']'",
        "`{\"a\":1,}`        | 1 | 8 | trailing comma before '}'",
        "`{\"a\" 1}`         | 1 | 6 | expected ':' after the key",
        "`{a:1}`             | 1 | 2 | expected a key in double quotes",
        "`{'a':1}`           | 1 | 2 | double quotes, not single quotes",
        "`['a']`             | 1 | 2 | double quotes, not single quotes",
        "`{\"a\":1 \"b\":2}` | 1 | 8 | expected ',' or '}'",
        "`{\"a\":1,⏎\"a\":2}`| 2 | 1 | duplicate key 'a'",
        "`[1] 2`             | 1 | 5 | after the JSON value",
        "`[1]]`              | 1 | 4 | after the JSON value",
        "`// c⏎1`            | 1 | 1 | comments are not allowed",
        "`[1, /* c */ 2]`    | 1 | 5 | comments are not allowed",
        "`[NaN]`             | 1 | 2 | no NaN",
        "`[-Infinity]`       | 1 | 2 | no NaN or Infinity",
        "`[Infinity]`        | 1 | 2 | no NaN",
        "`+1`                | 1 | 1 | leading '+'",
        "`.5`                | 1 | 1 | a digit must precede",
        "`01`                | 1 | 2 | leading zeros",
        "`-`                 | 1 | 2 | expected a digit after '-'",
        "`[-a]`              | 1 | 3 | expected a digit after '-'",
        "`1.`                | 1 | 2 | expected a digit after the decimal point",
        "`1.e5`              | 1 | 2 | expected a digit after the decimal point",
        "`1e`                | 1 | 3 | expected a digit in the exponent",
        "`1e+`               | 1 | 4 | expected a digit in the exponent",
        "`[1.5.2]`           | 1 | 5 | unexpected '.'",
        "`0x10`              | 1 | 2 | unexpected 'x'",
        "`[1e999]`           | 1 | 2 | number out of range",
        "`[-1e999]`          | 1 | 2 | number out of range",
        "`tru`               | 1 | 1 | unexpected 'tru'",
        "`True`              | 1 | 1 | unexpected 'True'",
        "`nulls`             | 1 | 1 | unexpected 'nulls'",
        "`[undefined]`       | 1 | 2 | unexpected 'undefined'",
        "`\"abc`             | 1 | 1 | unterminated string",
        "`[\"ab⏎c\"]`        | 1 | 5 | unterminated string",
        "`\"a\tb\"`          | 1 | 3 | control character U+0009",
        "`\"a\\x\"`          | 1 | 3 | invalid escape \\x",
        "`\"a\\u12\"`        | 1 | 7 | four hexadecimal digits",
        "`\"a\\u12G4\"`      | 1 | 7 | four hexadecimal digits",
        "`\"\\uD83D\"`       | 1 | 1 | unpaired surrogate \\uD83D",
        "`\"\\uD83Dx\"`      | 1 | 1 | unpaired surrogate \\uD83D",
        "`\"\\uD83D\\u0041\"`| 1 | 1 | unpaired surrogate \\uD83D",
        "`\"\\uDE00\"`       | 1 | 1 | unpaired surrogate \\uDE00",
        "`\"a\\`             | 1 | 4 | ends in an escape",
        "`{\"a\":}`          | 1 | 6 | unexpected '}' in the object that starts at [1,1]: expected a JSON value",
        "`[,1]`              | 1 | 2 | unexpected ','",
        "`⏎⏎  [1,⏎   @]`     | 4 | 4 | unexpected '@'",
    })
    void syntaxErrorsNameLineAndColumn(String text, int line, int column, String expected) {
        JsonException e = failure(text.replace('⏎', '\n'));
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(column, e.column(), e.getMessage());
        assertTrue(e.detail().contains(expected), () -> "'" + e.detail() + "' should contain '" + expected + "'");
        assertTrue(e.getMessage().startsWith("doc.json:[" + line + "," + column + "] "), e.getMessage());
    }

    /** Issue 13: strict on Jackson, each refusal a whole located message. */
    @Test
    void strictNoNanNoDuplicateKeysNoTrailingGarbage() {
        assertEquals("doc.json:[2,9] invalid number: JSON has no NaN or Infinity ('NaN')",
                failure("{\"q\": [1,\n  2, 3, NaN]}").getMessage());
        assertEquals("doc.json:[1,2] invalid number: JSON has no NaN or Infinity ('Infinity')",
                failure("[Infinity]").getMessage());
        assertEquals("doc.json:[3,3] duplicate key 'q' in the object that starts at [2,3]",
                failure("{\"states\": [\n  {\"q\": [0.1],\n  \"q\": [0.2]}]}").getMessage());
        assertEquals("doc.json:[1,13] duplicate key 'a\"b' in the object that starts at [1,1]",
                failure("{\"a\\\"b\": 1, \"a\\\"b\": 2}").getMessage());
        assertEquals("doc.json:[2,1] unexpected '{' after the JSON value",
                failure("{\"states\": []}\n{\"states\": []}").getMessage());
        assertEquals("doc.json:[1,16] unexpected 'x' after the JSON value",
                failure("{\"states\": []} x").getMessage());
        assertEquals("doc.json:[1,4] unexpected ',' after the JSON value", failure("[1],").getMessage());
        assertEquals("doc.json:[1,3] unexpected '2' after the JSON value", failure("1 2").getMessage());
    }

    @Test
    void rawControlCharacterInStringIsNamed() {
        JsonException e = failure("\"a\u0001\"");
        assertEquals("doc.json:[1,3] control character U+0001 in a string: it must be escaped", e.getMessage());
    }

    @Test
    void errorColumnsCountCodePoints() {
        JsonException e = failure("[\"\uD83D\uDE00\", x]");
        assertEquals(1, e.line());
        assertEquals(7, e.column());
    }

    // ---- files ----

    @Test
    void readsFilesAndReportsUnreadableOnes(@TempDir Path dir) throws IOException, JsonException {
        Path good = dir.resolve("good.json");
        Files.writeString(good, "{\"k\": [1, 2]}", StandardCharsets.UTF_8);
        assertEquals(JsonValue.array(1, 2), ((ObjectValue) JsonReader.read(good)).get("k"));

        Path missing = dir.resolve("missing.json");
        JsonException e = assertThrows(JsonException.class, () -> JsonReader.read(missing));
        assertEquals(missing + ":[0,0] cannot read file: no such file", e.getMessage());

        JsonException d = assertThrows(JsonException.class, () -> JsonReader.read(dir));
        assertTrue(d.getMessage().startsWith(dir + ":[0,0] cannot read file"), d.getMessage());

        Path latin1 = dir.resolve("latin1.json");
        Files.write(latin1, new byte[] {'"', (byte) 0xE9, '"'});
        JsonException enc = assertThrows(JsonException.class, () -> JsonReader.read(latin1));
        assertEquals(latin1 + ":[0,0] not a UTF-8 text file", enc.getMessage());

        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\n  \"k\": [1, 2,]\n}\n");
        JsonException syntax = assertThrows(JsonException.class, () -> JsonReader.read(bad));
        assertEquals(bad + ":[2,14] trailing comma before ']'", syntax.getMessage());
    }

    @Test
    void equalityIgnoresPositions() throws JsonException {
        JsonValue a = parse("{\"a\": [1, 2.5, \"x\", null, true]}");
        JsonValue b = parse("\n\n   {  \"a\":[1,2.5,\"x\",null,true]  }");
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertFalse(parse("[0.0]").equals(parse("[-0.0]")), "-0.0 and 0.0 are different doubles");
    }
}
