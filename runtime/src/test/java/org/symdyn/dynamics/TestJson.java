package org.symdyn.dynamics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader for the reference files (the runtime has no JSON library): objects become
 * {@code LinkedHashMap<String, Object>}, arrays {@code List<Object>}, numbers {@code Double} (parsed by
 * {@link Double#parseDouble}, which rounds correctly, so the 17-digit reference values round-trip exactly), strings
 * {@code String}, true/false {@code Boolean}, null {@code null}. Test code only: no streaming, minimal escapes.
 */
final class TestJson {
    private final String s;
    private int pos;

    private TestJson(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        TestJson p = new TestJson(text);
        Object value = p.value();
        p.skipWhitespace();
        if (p.pos != text.length()) {
            throw p.error("trailing characters");
        }
        return value;
    }

    static Object parse(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    static double[] vector(Object o) {
        List<Object> l = list(o);
        double[] x = new double[l.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = (Double) l.get(i);
        }
        return x;
    }

    /** A list of rows as a double[rows][cols]. */
    static double[][] matrix(Object o) {
        List<Object> rows = list(o);
        double[][] m = new double[rows.size()][];
        for (int i = 0; i < m.length; i++) {
            m[i] = vector(rows.get(i));
        }
        return m;
    }

    static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        for (Object x : list(o)) {
            out.add((String) x);
        }
        return out;
    }

    private Object value() {
        skipWhitespace();
        if (pos >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(pos);
        switch (c) {
            case '{': {
                pos++;
                Map<String, Object> map = new LinkedHashMap<>();
                skipWhitespace();
                if (peek() == '}') {
                    pos++;
                    return map;
                }
                while (true) {
                    skipWhitespace();
                    String key = string();
                    skipWhitespace();
                    expect(':');
                    map.put(key, value());
                    skipWhitespace();
                    if (peek() == ',') {
                        pos++;
                    } else {
                        expect('}');
                        return map;
                    }
                }
            }
            case '[': {
                pos++;
                List<Object> list = new ArrayList<>();
                skipWhitespace();
                if (peek() == ']') {
                    pos++;
                    return list;
                }
                while (true) {
                    list.add(value());
                    skipWhitespace();
                    if (peek() == ',') {
                        pos++;
                    } else {
                        expect(']');
                        return list;
                    }
                }
            }
            case '"':
                return string();
            default:
                if (s.startsWith("true", pos)) {
                    pos += 4;
                    return Boolean.TRUE;
                }
                if (s.startsWith("false", pos)) {
                    pos += 5;
                    return Boolean.FALSE;
                }
                if (s.startsWith("null", pos)) {
                    pos += 4;
                    return null;
                }
                int start = pos;
                while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                    pos++;
                }
                if (start == pos) {
                    throw error("unexpected character '" + c + "'");
                }
                return Double.parseDouble(s.substring(start, pos));
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(pos++);
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(pos++);
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> b.append(e); // \" \\ \/
            }
        }
    }

    private char peek() {
        return pos < s.length() ? s.charAt(pos) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void skipWhitespace() {
        while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
            pos++;
        }
    }

    private IllegalArgumentException error(String message) {
        return new IllegalArgumentException("JSON: " + message + " at offset " + pos);
    }
}
