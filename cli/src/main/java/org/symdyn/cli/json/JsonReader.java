package org.symdyn.cli.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.symdyn.cli.json.JsonValue.Position;

/**
 * Strict JSON (RFC 8259) into a {@link JsonValue} tree that records where every value starts, parsed by Jackson's
 * streaming {@link JsonParser}; the first error is a {@link JsonException}, {@code path:[line,col] message}.
 *
 * <p>Strict: Jackson's defaults refuse comments, single quotes, unquoted keys, trailing commas, leading zeros and
 * {@code NaN}/{@code Infinity}; {@link StreamReadFeature#STRICT_DUPLICATE_DETECTION} refuses duplicate keys; this
 * reader refuses anything after the one value (Jackson would read a sequence of values), a document without a
 * value, numbers beyond the range of a double, strings holding an unpaired surrogate, and nesting deeper than
 * {@link #maxDepth()} arrays and objects. A UTF-8 byte order mark at the start is skipped.
 *
 * <p>Positions: lines count from 1 and end at LF, CR or CR LF; columns count code points from 1 (a character
 * outside the Basic Multilingual Plane is one column), computed from Jackson's character offsets. A value's
 * position is where its token starts; an error's is the offending character (the start of a bad word, the key of a
 * duplicate), or just past the end of the input. Jackson's messages are reworded for people who write states files
 * by hand, with the array or object an error is in.
 *
 * <p>Not thread-safe; create one per document (the static methods do).
 */
public final class JsonReader {
    /** The default bound on the nesting of arrays and objects. */
    public static final int DEFAULT_MAX_DEPTH = 512;

    /**
     * The largest file {@link #read} reads (64 MiB): a larger one, or a device such as {@code /dev/zero}, is refused
     * after reading that much instead of exhausting the memory.
     */
    public static final int MAX_FILE_BYTES = 64 << 20;

    private static final Pattern UNEXPECTED_CHAR = Pattern.compile(
            "(?s)Unexpected character \\('(.+?)' \\(code (\\d+)\\)\\)(?: in numeric value)?: (.*)");
    private static final Pattern QUOTED = Pattern.compile("(?s)[^']*'(.*?)'.*");
    private static final Pattern CODE = Pattern.compile("(?s).*code (\\d+)\\).*");

    private final String path;
    private final String text;
    private final int maxDepth;
    private final int[] lineStarts;
    /** Offsets of the arrays and objects open at the current token (innermost last). */
    private final Deque<Integer> open = new ArrayDeque<>();

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
        this.text = text.startsWith("\uFEFF") ? text.substring(1) : text;
        this.maxDepth = maxDepth;
        this.lineStarts = lineStarts(this.text);
    }

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
        return read(file, MAX_FILE_BYTES, "");
    }

    /**
     * Reads and parses a UTF-8 file as {@link #read(Path)} does, up to {@code maxBytes} (the refusal names the limit
     * and ends with {@code hint}, when not empty: what to do about it).
     */
    public static JsonValue read(Path file, int maxBytes, String hint) throws JsonException {
        String name = file.toString();
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw new JsonException(name, 0, 0, "cannot read file: it is a directory");
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(maxBytes);
                if (bytes.length == maxBytes && in.read() >= 0) {
                    throw new JsonException(name, 0, 0, "cannot read file: it is larger than "
                            + (maxBytes >> 20) + " MiB, the limit for " + (hint.isEmpty() ? "a JSON file"
                                    : hint));
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
        JsonFactory factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(maxDepth).build())
                .build();
        open.clear();
        try (JsonParser p = factory.createParser(text)) {
            try {
                if (p.nextToken() == null) {
                    throw error(text.length(), "empty document: expected a JSON value");
                }
                JsonValue root = value(p);
                // Jackson would read on to another value; here nothing but whitespace may follow
                int at = (int) Math.max(0, p.currentLocation().getCharOffset());
                while (at < text.length() && " \t\n\r".indexOf(text.charAt(at)) >= 0) {
                    at++;
                }
                if (at < text.length()) {
                    throw error(at, "unexpected " + describeAt(at) + " after the JSON value");
                }
                return root;
            } catch (StreamConstraintsException e) {
                int at = Math.max(0, (int) p.currentLocation().getCharOffset() - 1);
                throw error(at, "arrays and objects nested deeper than " + maxDepth + " levels");
            } catch (JsonProcessingException e) {
                throw translate(e);
            }
        } catch (IOException e) {
            throw error(text.length(), "cannot parse: " + e.getMessage()); // a String source does not fail so
        }
    }

    /** The value whose first token is the parser's current one. */
    private JsonValue value(JsonParser p) throws IOException, JsonException {
        int at = offset(p);
        Position position = position(at);
        JsonToken token = p.currentToken();
        switch (token) {
            case START_OBJECT: {
                open.push(at);
                Map<String, JsonValue> members = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    members.put(key, value(p));
                }
                open.pop();
                return new JsonValue.ObjectValue(members, position);
            }
            case START_ARRAY: {
                open.push(at);
                List<JsonValue> elements = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    elements.add(value(p));
                }
                open.pop();
                return new JsonValue.ArrayValue(elements, position);
            }
            case VALUE_STRING: {
                String s = p.getText();
                for (int i = 0; i < s.length(); i++) {
                    char c = s.charAt(i);
                    boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1));
                    if (paired) {
                        i++;
                    } else if (Character.isSurrogate(c)) {
                        throw error(at, "unpaired surrogate \\u" + hex(c) + " in a string: a high surrogate"
                                + " (\\uD800 to \\uDBFF) must be followed by a low one (\\uDC00 to \\uDFFF)");
                    }
                }
                return new JsonValue.StringValue(s, position);
            }
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT: {
                String literal = p.getText();
                double v = Double.parseDouble(literal); // the JSON grammar is a subset of Java's: exact, -0 kept
                if (!Double.isFinite(v)) {
                    throw error(at, "number out of range: " + literal
                            + " exceeds the largest double (about 1.8e308)");
                }
                return new JsonValue.NumberValue(v, position);
            }
            case VALUE_TRUE:
                return new JsonValue.BooleanValue(true, position);
            case VALUE_FALSE:
                return new JsonValue.BooleanValue(false, position);
            case VALUE_NULL:
                return new JsonValue.NullValue(position);
            default:
                throw new IllegalStateException("unexpected token " + token + " at " + position);
        }
    }

    // ---- Jackson's errors, reworded and located ----

    private JsonException translate(JsonProcessingException e) {
        String message = e.getOriginalMessage() == null ? "syntax error" : e.getOriginalMessage();
        long raw = e.getLocation() == null ? -1 : e.getLocation().getCharOffset();
        int at = raw < 0 ? text.length() : (int) Math.min(raw, text.length());

        if (message.startsWith("Duplicate field")) {
            String key = quoted(message);
            return error(keyStart(at), "duplicate key '" + key + "'" + inside());
        }
        if (message.startsWith("Unexpected end-of-input")) {
            if (message.contains("closing quote")) {
                return error(stringStart(at), "unterminated string: the input ends before its closing '\"'");
            }
            if (message.contains("escape")) {
                return error(at, "unterminated string: the input ends in an escape sequence");
            }
            if (message.contains("exponent")) {
                return error(at, "invalid number: expected a digit in the exponent");
            }
            if (message.contains("sign")) {
                return error(at, "invalid number: expected a digit after '-'");
            }
            if (message.contains("digit")) {
                return error(at, "invalid number: expected a digit");
            }
            return error(at, "unexpected end of input" + inside() + ": expected " + expectedInside());
        }
        if (message.startsWith("Non-standard token")) {
            String token = quoted(message);
            return error(wordStart(at, token), "invalid number: JSON has no NaN or Infinity ('" + token + "')");
        }
        if (message.startsWith("Unrecognized token")) {
            String token = quoted(message);
            return error(wordStart(at, token), "unexpected '" + token + "': expected a JSON value (true, false and"
                    + " null are lower case; strings need double quotes)");
        }
        if (message.startsWith("Unexpected close marker")) {
            String marker = quoted(message);
            return error(at, "unexpected '" + marker + "'" + (open.isEmpty() ? " after the JSON value"
                    : inside() + ": expected " + expectedInside()));
        }
        if (message.startsWith("Illegal unquoted character")) {
            int code = code(message);
            if (code == '\n' || code == '\r') {
                return error(at, "unterminated string (a line break must be written \\n in a JSON string)");
            }
            return error(at, "control character U+" + hex((char) code) + " in a string: it must be escaped");
        }
        if (message.startsWith("Unrecognized character escape")) {
            int code = code(message);
            int backslash = at > 0 && text.charAt(at - 1) == '\\' ? at - 1 : at;
            return error(backslash, "invalid escape \\" + printable((char) code)
                    + " (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
        }
        if (message.startsWith("Invalid numeric value: Leading zeroes")) {
            return error(at, "invalid number: leading zeros are not allowed");
        }
        Matcher m = UNEXPECTED_CHAR.matcher(message);
        if (m.matches()) {
            char c = (char) Integer.parseInt(m.group(2));
            String detail = m.group(3);
            if (at < text.length() && text.charAt(at) != c && at > 0 && text.charAt(at - 1) == c) {
                at--;
            }
            if ((c == ']' || c == '}') && previousNonBlank(at) == ',') {
                return error(at, "trailing comma before '" + c + "'");
            }
            if (c == '/') {
                return error(at, "comments are not allowed in JSON");
            }
            if (c == '\'') {
                return error(at, "strings and keys need double quotes, not single quotes");
            }
            if (c == '+') {
                return error(at, "invalid number: JSON has no leading '+'");
            }
            if (c == '.' && detail.startsWith("expected a valid value")) {
                return error(at, "invalid number: a digit must precede the decimal point");
            }
            if (message.contains(" in numeric value: ")) {
                return error(at, "invalid number: " + expected(detail));
            }
            if (detail.contains("hex-digit")) {
                return error(at, "invalid unicode escape: \\u must be followed by four hexadecimal digits");
            }
            return error(at, "unexpected " + describe(c) + inside() + ": " + expected(detail));
        }
        String cleaned = message.replaceAll("(?s)\\s*\\((?:start marker|for root)[^\\n]*", "").trim();
        return error(at, cleaned.isEmpty() ? "syntax error" : lowerFirst(cleaned));
    }

    /** What Jackson expected, in this reader's words. */
    private String expected(String jackson) {
        if (jackson.startsWith("was expecting comma to separate Array")) {
            return "expected ',' or ']'";
        }
        if (jackson.startsWith("was expecting comma to separate Object")) {
            return "expected ',' or '}'";
        }
        if (jackson.startsWith("was expecting double-quote to start field name")) {
            return "expected a key in double quotes";
        }
        if (jackson.startsWith("was expecting a colon")) {
            return "expected ':' after the key";
        }
        if (jackson.startsWith("expected a valid value") || jackson.startsWith("expected a value")) {
            return "expected a JSON value";
        }
        if (jackson.startsWith("Expected space separating root-level values")) {
            return "expected the end of the number";
        }
        if (jackson.startsWith("Decimal point not followed by a digit")) {
            return "expected a digit after the decimal point";
        }
        if (jackson.contains("to follow minus sign")) {
            return "expected a digit after '-'";
        }
        if (jackson.contains("exponent")) {
            return "expected a digit in the exponent";
        }
        return lowerFirst(jackson);
    }

    /** {@code " in the array that starts at [l,c]"} for the innermost open container, or nothing at the top. */
    private String inside() {
        if (open.isEmpty()) {
            return "";
        }
        int start = open.peek();
        return " in the " + (text.charAt(start) == '[' ? "array" : "object") + " that starts at " + position(start);
    }

    private String expectedInside() {
        if (open.isEmpty()) {
            return "a JSON value";
        }
        return text.charAt(open.peek()) == '[' ? "',' or ']'" : "',' or '}'";
    }

    // ---- offsets, positions and the text around them ----

    private static int offset(JsonParser p) {
        return (int) p.currentTokenLocation().getCharOffset();
    }

    /** Offsets where each line starts: after LF, after CR not followed by LF, after CR LF. */
    private static int[] lineStarts(String text) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n')) {
                starts.add(i + 1);
            }
        }
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }

    /** 1-based line and code-point column of a character offset. */
    private Position position(int offset) {
        int lo = 0;
        int hi = lineStarts.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (lineStarts[mid] <= offset) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        int column = text.codePointCount(lineStarts[lo], Math.min(offset, text.length())) + 1;
        return new Position(lo + 1, column);
    }

    private JsonException error(int offset, String detail) {
        Position p = position(offset);
        return new JsonException(path, p.line(), p.column(), detail);
    }

    /** The start of a key whose closing quote is just before {@code end}. */
    private int keyStart(int end) {
        int close = end - 1;
        while (close >= 0 && text.charAt(close) != '"') {
            close--;
        }
        for (int i = close - 1; i >= 0; i--) {
            if (text.charAt(i) == '"') {
                int backslashes = 0;
                for (int j = i - 1; j >= 0 && text.charAt(j) == '\\'; j--) {
                    backslashes++;
                }
                if (backslashes % 2 == 0) {
                    return i;
                }
            }
        }
        return Math.max(0, end);
    }

    /** The opening quote of the string that runs to the end of the input at {@code end}. */
    private int stringStart(int end) {
        int quote = -1;
        for (int i = 0; i < Math.min(end, text.length()); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                quote = quote < 0 ? i : -1;
            }
        }
        return quote < 0 ? end : quote;
    }

    /** Where the word {@code token} that ends at {@code end} starts (Jackson points past bad words). */
    private int wordStart(int end, String token) {
        int start = end - token.length();
        if (start >= 0 && text.startsWith(token, start)) {
            return start;
        }
        int i = Math.min(end, text.length());
        while (i > 0 && !Character.isWhitespace(text.charAt(i - 1)) && "[]{},:\"".indexOf(text.charAt(i - 1)) < 0) {
            i--;
        }
        return i;
    }

    private char previousNonBlank(int offset) {
        for (int i = offset - 1; i >= 0; i--) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return c;
            }
        }
        return 0;
    }

    /** The character or word at an offset, for "unexpected X after the JSON value". */
    private String describeAt(int offset) {
        if (offset >= text.length()) {
            return "end of input";
        }
        int end = offset;
        while (end < text.length() && end - offset < 20
                && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
            end++;
        }
        return end > offset ? "'" + text.substring(offset, end) + "'" : describe(text.charAt(offset));
    }

    private static String describe(char c) {
        if (c == '\n' || c == '\r') {
            return "line break";
        }
        if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) || Character.isWhitespace(c)) {
            return "character U+" + hex(c);
        }
        return "'" + c + "'";
    }

    private static String printable(char c) {
        return c < 0x20 || c == 0x7f || Character.isSurrogate(c) ? "U+" + hex(c) : String.valueOf(c);
    }

    private static String quoted(String message) {
        Matcher m = QUOTED.matcher(message);
        return m.matches() ? m.group(1) : "?";
    }

    private static int code(String message) {
        Matcher m = CODE.matcher(message);
        return m.matches() ? Integer.parseInt(m.group(1)) : '?';
    }

    private static String hex(char c) {
        return String.format("%04X", (int) c);
    }

    private static String lowerFirst(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
