package io.jrxe.tools.learn;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON text read into maps, lists, strings, numbers and booleans: what the lessons need to pick one value out of
 * `trace --json` or `states --json` (jackson-core's parser; the project has no data-binding library).
 */
final class JsonValues {
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonValues() {
    }

    static Object read(String json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            return value(p, p.nextToken());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String json) {
        return (Map<String, Object>) read(json);
    }

    private static Object value(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (JsonToken f = p.nextToken(); f != JsonToken.END_OBJECT; f = p.nextToken()) {
                    String name = p.currentName();
                    map.put(name, value(p, p.nextToken()));
                }
                yield map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    list.add(value(p, e));
                }
                yield list;
            }
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT -> p.getLongValue();
            case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
            case VALUE_TRUE -> true;
            case VALUE_FALSE -> false;
            default -> null;
        };
    }
}
