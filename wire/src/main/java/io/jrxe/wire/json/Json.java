package io.jrxe.wire.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;

/**
 * Where jrxe's JSON is written: jackson-core's streaming generator, made by one factory with jackson's defaults
 * (compact, strings escaped as RFC 8259 asks). Every JSON text jrxe prints goes through {@link #text}: decode's and
 * trace's lines, view's page data, perftest's --json line and --out_json file; a writer that needs another layout
 * or more escapes sets them on its generator ({@code setPrettyPrinter}, {@code setCharacterEscapes}) first.
 */
public final class Json {
    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {
    }

    /** What writes one JSON value through a generator. */
    @FunctionalInterface
    public interface Writing {
        void write(JsonGenerator g) throws IOException;
    }

    /** The text of the value that {@code writing} writes. */
    public static String text(Writing writing) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            writing.write(g);
        } catch (IOException e) {
            // A StringWriter never fails: the generator refused a misplaced call (a value where a name belongs), a jrxe bug.
            throw new IllegalStateException("writing JSON: " + e.getMessage(), e);
        }
        return out.toString();
    }

    /** A 64-bit value as the unsigned decimal number it stands for (an address, a key, an atomic operand). */
    public static void unsignedField(JsonGenerator g, String name, long value) throws IOException {
        g.writeFieldName(name);
        g.writeNumber(Long.toUnsignedString(value));
    }
}
