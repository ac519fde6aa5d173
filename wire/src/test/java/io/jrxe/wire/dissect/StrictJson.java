package io.jrxe.wire.dissect;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text read back for tests, strictly: jackson-core's parser, which by default accepts exactly the RFC 8259
 * grammar (no trailing commas, no leading zeros, no single quotes, no comments, no NaN, no bare control
 * characters), here also refusing duplicate keys and anything after the value. It returns plain Java values:
 * objects as {@link Map} in key order, arrays as {@link List}, numbers as {@link BigDecimal} as written (so 64-bit
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

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private StrictJson() {
    }

    /** Parses one JSON text; throws {@link IllegalArgumentException} naming the position of the first error. */
    public static Object parse(String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() == null) {
                throw new IllegalArgumentException("invalid JSON: no value in: " + text);
            }
            Object value = value(p);
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("invalid JSON at offset " + p.currentTokenLocation().getCharOffset()
                        + ": text after the JSON value in: " + text);
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("invalid JSON at offset " + e.getLocation().getCharOffset() + ": "
                    + e.getOriginalMessage() + " in: " + text, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a String does not fail to be read
        }
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

    /** The value whose first token is the parser's current one; the parser is left on its last token. */
    private static Object value(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    map.put(key, value(p));
                }
                yield map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    list.add(value(p));
                }
                yield Collections.unmodifiableList(list);
            }
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getDecimalValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> NULL;
            default -> throw new IllegalStateException("jackson's parser gave " + p.currentToken() + " where a value starts");
        };
    }
}
