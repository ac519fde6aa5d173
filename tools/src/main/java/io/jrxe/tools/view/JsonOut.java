package io.jrxe.tools.view;

/**
 * Writes JSON text: objects and arrays nested to any depth, commas placed by itself. Values are
 * strings, numbers, booleans, null or JSON text made elsewhere ({@link #raw}).
 */
final class JsonOut {
    private final StringBuilder sb;
    /** Whether the container being written still has no member: no comma before the next one. */
    private boolean empty = true;

    JsonOut(int capacity) {
        sb = new StringBuilder(capacity);
    }

    JsonOut object() {
        return open('{');
    }

    JsonOut array() {
        return open('[');
    }

    JsonOut end(char close) {
        sb.append(close);
        empty = false;
        return this;
    }

    JsonOut endObject() {
        return end('}');
    }

    JsonOut endArray() {
        return end(']');
    }

    /** The key of the next object member. */
    JsonOut key(String name) {
        comma();
        quote(name);
        sb.append(':');
        empty = true; // the member's value follows without a comma
        return this;
    }

    JsonOut value(String text) {
        comma();
        if (text == null) {
            sb.append("null");
        } else {
            quote(text);
        }
        return this;
    }

    JsonOut value(long number) {
        comma();
        sb.append(number);
        return this;
    }

    JsonOut value(boolean b) {
        comma();
        sb.append(b);
        return this;
    }

    /** JSON text made elsewhere, e.g. the dissector's object for a packet. */
    JsonOut raw(String json) {
        comma();
        sb.append(json);
        return this;
    }

    JsonOut field(String name, String text) {
        return key(name).value(text);
    }

    JsonOut field(String name, long number) {
        return key(name).value(number);
    }

    JsonOut field(String name, boolean b) {
        return key(name).value(b);
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    private JsonOut open(char bracket) {
        comma();
        sb.append(bracket);
        empty = true;
        return this;
    }

    private void comma() {
        if (!empty) {
            sb.append(',');
        }
        empty = false;
    }

    private void quote(String text) {
        sb.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                // So that the text can stand inside an HTML script element: no "</script>" can appear.
                case '<' -> sb.append("\\u003c");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
