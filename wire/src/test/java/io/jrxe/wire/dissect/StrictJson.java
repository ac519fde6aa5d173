package io.jrxe.wire.dissect;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict RFC 8259 JSON parser for tests, so that no JSON library is needed: it accepts exactly
 * the JSON grammar (no trailing commas, no leading zeros, no single quotes, no bare control
 * characters, no duplicate keys, nothing after the value) and returns plain Java values: objects
 * as {@link Map} in key order, arrays as {@link List}, numbers as {@link BigDecimal} (so 64-bit
 * unsigned values survive), strings, booleans, and {@link #NULL} for null.
 */
public final class StrictJson {
    /** JSON's null (a Map cannot hold Java's null in a way tests could tell from an absent key). */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private final String text;
    private int at;

    private StrictJson(String text) {
        this.text = text;
    }

    /** Parses one JSON text; throws {@link IllegalArgumentException} naming the position of the first error. */
    public static Object parse(String text) {
        StrictJson parser = new StrictJson(text);
        parser.whitespace();
        Object value = parser.value();
        parser.whitespace();
        if (parser.at != text.length()) {
            throw parser.error("text after the JSON value");
        }
        return value;
    }

    /** Parses a JSON text that must be an object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object value = parse(text);
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object: " + text);
        }
        return (Map<String, Object>) value;
    }

    private Object value() {
        if (at >= text.length()) {
            throw error("unexpected end, a value was expected");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", NULL);
            default -> {
                if (c == '-' || c >= '0' && c <= '9') {
                    yield number();
                }
                throw error("unexpected character '" + c + "'");
            }
        };
    }

    private Map<String, Object> object() {
        expect('{');
        Map<String, Object> map = new LinkedHashMap<>();
        whitespace();
        if (peek() == '}') {
            at++;
            return map;
        }
        while (true) {
            whitespace();
            if (peek() != '"') {
                throw error("a key string was expected");
            }
            String key = string();
            if (map.containsKey(key)) {
                throw error("duplicate key \"" + key + "\"");
            }
            whitespace();
            expect(':');
            whitespace();
            map.put(key, value());
            whitespace();
            char c = next();
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                throw error("',' or '}' expected, found '" + c + "'");
            }
        }
    }

    private List<Object> array() {
        expect('[');
        List<Object> list = new ArrayList<>();
        whitespace();
        if (peek() == ']') {
            at++;
            return Collections.unmodifiableList(list);
        }
        while (true) {
            whitespace();
            list.add(value());
            whitespace();
            char c = next();
            if (c == ']') {
                return Collections.unmodifiableList(list);
            }
            if (c != ',') {
                throw error("',' or ']' expected, found '" + c + "'");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                throw error("unescaped control character 0x" + Integer.toHexString(c) + " in a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("truncated \\u escape");
                    }
                    int code = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = Character.digit(text.charAt(at++), 16);
                        if (digit < 0) {
                            throw error("bad hex digit in a \\u escape");
                        }
                        code = code << 4 | digit;
                    }
                    sb.append((char) code);
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private BigDecimal number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        if (peek() == '0') {
            at++;
            if (isDigit(peek())) {
                throw error("a number with a leading zero");
            }
        } else {
            digits("an integer part");
        }
        if (peek() == '.') {
            at++;
            digits("a fraction");
        }
        if (peek() == 'e' || peek() == 'E') {
            at++;
            if (peek() == '+' || peek() == '-') {
                at++;
            }
            digits("an exponent");
        }
        return new BigDecimal(text.substring(start, at));
    }

    private void digits(String what) {
        if (!isDigit(peek())) {
            throw error(what + " needs at least one digit");
        }
        while (isDigit(peek())) {
            at++;
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("bad literal, " + word + " expected");
        }
        at += word.length();
        return value;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void whitespace() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private char next() {
        if (at >= text.length()) {
            throw error("unexpected end of the text");
        }
        return text.charAt(at++);
    }

    private void expect(char c) {
        char found = next();
        if (found != c) {
            throw error("'" + c + "' expected, found '" + found + "'");
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("invalid JSON at offset " + at + ": " + what + " in: " + text);
    }
}
