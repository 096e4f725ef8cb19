package org.symdyn.cli.json;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.symdyn.cli.json.JsonValue.Position;

/**
 * A strict JSON parser (RFC 8259) that records where every value starts and reports the first syntax error as
 * {@code path:[line,col] message}.
 *
 * <p>Accepted: one value of any type surrounded by optional whitespace (space, tab, line feed, carriage return);
 * strings with the escapes {@code \" \\ \/ \b \f \n \r \t \\uXXXX} (surrogate pairs combined; an unpaired
 * surrogate is an error); numbers of the JSON grammar, converted to the nearest double. Refused, each with its own
 * message: comments, trailing commas, single quotes, unquoted keys, duplicate keys, leading zeros, {@code NaN} and
 * {@code Infinity}, numbers beyond the range of a double, raw control characters in strings, and nesting deeper
 * than {@link #maxDepth()} arrays and objects (the parser is recursive; the bound keeps it far from a stack
 * overflow). A UTF-8 byte order mark at the start of a file is skipped.
 *
 * <p>Lines are counted from 1 and end at LF, CR or CR LF; columns are counted from 1 in code points. An error at
 * the end of the input points just past the last character.
 *
 * <p>Not thread-safe; create one per document (the static methods do).
 */
public final class JsonReader {
    /** The default bound on the nesting of arrays and objects. */
    public static final int DEFAULT_MAX_DEPTH = 512;

    private final String path;
    private final String text;
    private final int maxDepth;
    private int pos;
    private int line = 1;
    private int column = 1;
    private int depth;

    /**
     * @param path     the name used in error messages (the file path as the user gave it)
     * @param text     the document
     * @param maxDepth the deepest nesting of arrays and objects accepted (at least 1)
     */
    public JsonReader(String path, String text, int maxDepth) {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("maxDepth must be at least 1");
        }
        this.path = path;
        this.text = text;
        this.maxDepth = maxDepth;
        if (text.startsWith("\uFEFF")) {
            pos = 1;
        }
    }

    /**
     * The largest file {@link #read} reads (64 MiB): a larger one, or a device such as {@code /dev/zero}, is refused
     * after reading that much instead of exhausting the memory.
     */
    public static final int MAX_FILE_BYTES = 64 << 20;

    /** Parses a document with the {@link #DEFAULT_MAX_DEPTH}. */
    public static JsonValue parse(String path, String text) throws JsonException {
        return new JsonReader(path, text, DEFAULT_MAX_DEPTH).parse();
    }

    /**
     * Reads and parses a UTF-8 file. The path in messages is {@code file.toString()}. A file that cannot be read
     * gives {@code path:[0,0] cannot read file: reason}; bytes that are not UTF-8 give
     * {@code path:[0,0] not a UTF-8 text file}; one over {@link #MAX_FILE_BYTES}, {@code path:[0,0] cannot read file:
     * it is larger than 64 MiB, ...}.
     */
    public static JsonValue read(Path file) throws JsonException {
        String name = file.toString();
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw new JsonException(name, 0, 0, "cannot read file: it is a directory");
            }
            try (java.io.InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_FILE_BYTES);
                if (bytes.length == MAX_FILE_BYTES && in.read() >= 0) {
                    throw new JsonException(name, 0, 0, "cannot read file: it is larger than "
                            + (MAX_FILE_BYTES >> 20) + " MiB, the limit for a JSON file");
                }
            }
        } catch (NoSuchFileException e) {
            throw new JsonException(name, 0, 0, "cannot read file: no such file");
        } catch (AccessDeniedException e) {
            throw new JsonException(name, 0, 0, "cannot read file: permission denied");
        } catch (IOException e) {
            throw new JsonException(name, 0, 0, "cannot read file: " + e.getMessage());
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new JsonException(name, 0, 0, "not a UTF-8 text file");
        }
        return parse(name, text);
    }

    /** The deepest nesting of arrays and objects this reader accepts. */
    public int maxDepth() {
        return maxDepth;
    }

    /** Parses the whole document: exactly one value, then only whitespace. */
    public JsonValue parse() throws JsonException {
        skipWhitespace();
        if (atEnd()) {
            throw error("empty document: expected a JSON value");
        }
        JsonValue value = parseValue();
        skipWhitespace();
        if (!atEnd()) {
            throw error("unexpected " + describe(peek()) + " after the JSON value (a document holds one value)");
        }
        return value;
    }

    // ---- values ----

    private JsonValue parseValue() throws JsonException {
        if (atEnd()) {
            throw error("unexpected end of input: expected a JSON value");
        }
        char c = peek();
        switch (c) {
            case '{':
                return parseObject();
            case '[':
                return parseArray();
            case '"':
                return parseString();
            case 't':
            case 'f':
            case 'n':
                return parseLiteral();
            case '-':
                return parseNumber();
            default:
                if (c >= '0' && c <= '9') {
                    return parseNumber();
                }
                throw unexpectedValueStart();
        }
    }

    private JsonException unexpectedValueStart() {
        char c = peek();
        if (c == '\'') {
            return error("strings must be in double quotes, not single quotes");
        }
        if (c == '/') {
            return error("comments are not allowed in JSON");
        }
        if (text.startsWith("NaN", pos) || text.startsWith("Infinity", pos) || c == '+') {
            return error("invalid number: JSON has no NaN, Infinity or leading '+'");
        }
        if (c == '.') {
            return error("invalid number: a digit must precede the decimal point");
        }
        if (c == ',' || c == ']' || c == '}' || c == ':') {
            return error("unexpected " + describe(c) + ": expected a JSON value");
        }
        if (Character.isLetter(c) || c == '_') {
            return error("unexpected " + describeWord() + ": expected a JSON value (strings need double quotes)");
        }
        return error("unexpected " + describe(c) + ": expected a JSON value");
    }

    private JsonValue parseObject() throws JsonException {
        Position start = here();
        enterNesting();
        advance(); // '{'
        Map<String, JsonValue> members = new LinkedHashMap<>();
        skipWhitespace();
        if (!atEnd() && peek() == '}') {
            advance();
            depth--;
            return new JsonValue.ObjectValue(members, start);
        }
        while (true) {
            skipWhitespace();
            if (atEnd()) {
                throw error("unexpected end of input in the object that starts at " + start
                        + ": expected a string key");
            }
            char c = peek();
            if (c != '"') {
                if (c == '}') {
                    throw error("trailing comma before '}'");
                }
                if (c == '\'') {
                    throw error("object keys must be in double quotes, not single quotes");
                }
                if (c == '/') {
                    throw error("comments are not allowed in JSON");
                }
                throw error("unexpected " + describeWordOrChar() + ": expected a string key in double quotes");
            }
            Position keyPosition = here();
            String key = parseString().value();
            if (members.containsKey(key)) {
                throw new JsonException(path, keyPosition.line(), keyPosition.column(),
                        "duplicate key " + quote(key) + " in the object that starts at " + start);
            }
            skipWhitespace();
            if (atEnd()) {
                throw error("unexpected end of input: expected ':' after the key " + quote(key));
            }
            if (peek() != ':') {
                throw error("unexpected " + describeWordOrChar() + ": expected ':' after the key " + quote(key));
            }
            advance();
            skipWhitespace();
            members.put(key, parseValue());
            skipWhitespace();
            if (atEnd()) {
                throw error("unexpected end of input in the object that starts at " + start
                        + ": expected ',' or '}'");
            }
            c = peek();
            if (c == ',') {
                advance();
            } else if (c == '}') {
                advance();
                depth--;
                return new JsonValue.ObjectValue(members, start);
            } else {
                throw error("unexpected " + describeWordOrChar() + " in the object that starts at " + start
                        + ": expected ',' or '}'");
            }
        }
    }

    private JsonValue parseArray() throws JsonException {
        Position start = here();
        enterNesting();
        advance(); // '['
        List<JsonValue> elements = new ArrayList<>();
        skipWhitespace();
        if (!atEnd() && peek() == ']') {
            advance();
            depth--;
            return new JsonValue.ArrayValue(elements, start);
        }
        while (true) {
            skipWhitespace();
            if (atEnd()) {
                throw error("unexpected end of input in the array that starts at " + start
                        + ": expected a JSON value");
            }
            if (peek() == ']') {
                throw error("trailing comma before ']'");
            }
            elements.add(parseValue());
            skipWhitespace();
            if (atEnd()) {
                throw error("unexpected end of input in the array that starts at " + start
                        + ": expected ',' or ']'");
            }
            char c = peek();
            if (c == ',') {
                advance();
            } else if (c == ']') {
                advance();
                depth--;
                return new JsonValue.ArrayValue(elements, start);
            } else {
                throw error("unexpected " + describeWordOrChar() + " in the array that starts at " + start
                        + ": expected ',' or ']'");
            }
        }
    }

    private void enterNesting() throws JsonException {
        if (depth >= maxDepth) {
            throw error("arrays and objects nested deeper than " + maxDepth + " levels");
        }
        depth++;
    }

    private JsonValue.StringValue parseString() throws JsonException {
        Position start = here();
        advance(); // opening quote
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (atEnd()) {
                throw new JsonException(path, start.line(), start.column(),
                        "unterminated string: the input ends before its closing '\"'");
            }
            char c = peek();
            if (c == '"') {
                advance();
                return new JsonValue.StringValue(sb.toString(), start);
            }
            if (c == '\\') {
                parseEscape(sb);
            } else if (c < 0x20) {
                if (c == '\n' || c == '\r') {
                    throw error("unterminated string (a line break must be written \\n in a JSON string)");
                }
                throw error("control character " + codePoint(c) + " in a string: it must be escaped");
            } else {
                int from = pos;
                advance(); // one code point: a surrogate pair moves two chars
                sb.append(text, from, pos);
            }
        }
    }

    private void parseEscape(StringBuilder sb) throws JsonException {
        Position escapeStart = here();
        advance(); // backslash
        if (atEnd()) {
            throw error("unterminated string: the input ends in an escape sequence");
        }
        char e = peek();
        switch (e) {
            case '"' -> sb.append('"');
            case '\\' -> sb.append('\\');
            case '/' -> sb.append('/');
            case 'b' -> sb.append('\b');
            case 'f' -> sb.append('\f');
            case 'n' -> sb.append('\n');
            case 'r' -> sb.append('\r');
            case 't' -> sb.append('\t');
            case 'u' -> {
                advance();
                char unit = readHex4(escapeStart);
                if (Character.isHighSurrogate(unit)) {
                    if (text.startsWith("\\u", pos)) {
                        Position lowStart = here();
                        advance();
                        advance();
                        char low = readHex4(lowStart);
                        if (!Character.isLowSurrogate(low)) {
                            throw new JsonException(path, escapeStart.line(), escapeStart.column(),
                                    "unpaired surrogate \\u" + hex(unit) + ": a high surrogate must be followed by"
                                            + " a low surrogate escape (\\uDC00 to \\uDFFF)");
                        }
                        sb.append(unit).append(low);
                    } else {
                        throw new JsonException(path, escapeStart.line(), escapeStart.column(),
                                "unpaired surrogate \\u" + hex(unit) + ": a high surrogate must be followed by"
                                        + " a low surrogate escape (\\uDC00 to \\uDFFF)");
                    }
                } else if (Character.isLowSurrogate(unit)) {
                    throw new JsonException(path, escapeStart.line(), escapeStart.column(),
                            "unpaired surrogate \\u" + hex(unit) + ": a low surrogate must follow a high one");
                } else {
                    sb.append(unit);
                }
                return;
            }
            default -> throw new JsonException(path, escapeStart.line(), escapeStart.column(),
                    "invalid escape \\" + printable(e) + " (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
        }
        advance();
    }

    /** Reads the four hex digits after {@code \\u}; pos is at the first of them. */
    private char readHex4(Position escapeStart) throws JsonException {
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = atEnd() ? -1 : hexDigit(peek());
            if (digit < 0) {
                throw new JsonException(path, escapeStart.line(), escapeStart.column(),
                        "invalid unicode escape: \\u must be followed by four hexadecimal digits");
            }
            value = value * 16 + digit;
            advance();
        }
        return (char) value;
    }

    private JsonValue parseLiteral() throws JsonException {
        Position start = here();
        for (String word : new String[] {"true", "false", "null"}) {
            if (text.startsWith(word, pos) && !isWordChar(pos + word.length())) {
                for (int i = 0; i < word.length(); i++) {
                    advance();
                }
                return switch (word) {
                    case "true" -> new JsonValue.BooleanValue(true, start);
                    case "false" -> new JsonValue.BooleanValue(false, start);
                    default -> new JsonValue.NullValue(start);
                };
            }
        }
        throw error("unexpected " + describeWord() + ": expected a JSON value (true, false and null are"
                + " lower case; strings need double quotes)");
    }

    private JsonValue parseNumber() throws JsonException {
        Position start = here();
        int begin = pos;
        if (peek() == '-') {
            advance();
            if (atEnd() || !isDigit(peek())) {
                if (!atEnd() && text.startsWith("Infinity", pos)) {
                    throw error("invalid number: JSON has no NaN or Infinity");
                }
                throw error("invalid number: expected a digit after '-'");
            }
        }
        if (peek() == '0') {
            advance();
            if (!atEnd() && isDigit(peek())) {
                throw error("invalid number: leading zeros are not allowed");
            }
        } else {
            while (!atEnd() && isDigit(peek())) {
                advance();
            }
        }
        if (!atEnd() && peek() == '.') {
            advance();
            if (atEnd() || !isDigit(peek())) {
                throw error("invalid number: expected a digit after the decimal point");
            }
            while (!atEnd() && isDigit(peek())) {
                advance();
            }
        }
        if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
            advance();
            if (!atEnd() && (peek() == '+' || peek() == '-')) {
                advance();
            }
            if (atEnd() || !isDigit(peek())) {
                throw error("invalid number: expected a digit in the exponent");
            }
            while (!atEnd() && isDigit(peek())) {
                advance();
            }
        }
        if (!atEnd() && (isWordChar(pos) || peek() == '.')) {
            throw error("invalid number: unexpected " + describe(peek()) + " after "
                    + quote(text.substring(begin, pos)));
        }
        String literal = text.substring(begin, pos);
        double value = Double.parseDouble(literal);
        if (!Double.isFinite(value)) {
            throw new JsonException(path, start.line(), start.column(),
                    "number out of range: " + literal + " exceeds the largest double (about 1.8e308)");
        }
        return new JsonValue.NumberValue(value, start);
    }

    // ---- characters and positions ----

    private boolean atEnd() {
        return pos >= text.length();
    }

    private char peek() {
        return text.charAt(pos);
    }

    /** Moves past one char, keeping line and column (columns count code points; CR LF is one line break). */
    private void advance() {
        char c = text.charAt(pos++);
        if (c == '\n') {
            line++;
            column = 1;
        } else if (c == '\r') {
            if (pos < text.length() && text.charAt(pos) == '\n') {
                pos++;
            }
            line++;
            column = 1;
        } else if (Character.isHighSurrogate(c) && pos < text.length()
                && Character.isLowSurrogate(text.charAt(pos))) {
            pos++;
            column++;
        } else {
            column++;
        }
    }

    private void skipWhitespace() {
        while (!atEnd()) {
            char c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                advance();
            } else {
                return;
            }
        }
    }

    private Position here() {
        return new Position(line, column);
    }

    private JsonException error(String detail) {
        return new JsonException(path, line, column, detail);
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private boolean isWordChar(int index) {
        if (index >= text.length()) {
            return false;
        }
        char c = text.charAt(index);
        return Character.isLetterOrDigit(c) || c == '_' || c == '+' || c == '-';
    }

    /** The identifier-like word at the current position, quoted, for messages such as "unexpected 'True'". */
    private String describeWord() {
        int end = pos;
        while (end < text.length() && end - pos < 20
                && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
            end++;
        }
        if (end == pos) {
            return describe(peek());
        }
        return quote(text.substring(pos, end));
    }

    private String describeWordOrChar() {
        char c = peek();
        return Character.isLetterOrDigit(c) || c == '_' ? describeWord() : describe(c);
    }

    private static String describe(char c) {
        if (c == '\n' || c == '\r') {
            return "line break";
        }
        if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) || Character.isWhitespace(c)) {
            return "character " + codePoint(c);
        }
        return "'" + c + "'";
    }

    private static String printable(char c) {
        return c < 0x20 || c == 0x7f || Character.isSurrogate(c) ? codePoint(c) : String.valueOf(c);
    }

    private static String codePoint(char c) {
        return "U+" + hex(c);
    }

    private static String hex(char c) {
        return String.format("%04X", (int) c);
    }

    private static String quote(String s) {
        return "'" + s + "'";
    }
}
