package io.jrxe.wire.dissect;

/** A minimal JSON object writer for the dissector's outputs: fields, nested objects, strings escaped. */
final class JsonWriter {
    private final StringBuilder sb = new StringBuilder(256).append('{');
    private boolean first = true;

    private JsonWriter key(String name) {
        if (!first) {
            sb.append(',');
        }
        first = false;
        sb.append('"').append(name).append("\":");
        return this;
    }

    JsonWriter field(String name, long value) {
        key(name).sb.append(value);
        return this;
    }

    JsonWriter field(String name, boolean value) {
        key(name).sb.append(value);
        return this;
    }

    JsonWriter field(String name, String value) {
        JsonText.quote(key(name).sb, value);
        return this;
    }

    JsonWriter u64(String name, long value) {
        key(name).sb.append(Long.toUnsignedString(value));
        return this;
    }

    JsonWriter raw(String name, String jsonNumber) {
        key(name).sb.append(jsonNumber);
        return this;
    }

    JsonWriter open(String name) {
        key(name).sb.append('{');
        first = true;
        return this;
    }

    JsonWriter end() {
        sb.append('}');
        first = false;
        return this;
    }

    String close() {
        return sb.append('}').toString();
    }
}
