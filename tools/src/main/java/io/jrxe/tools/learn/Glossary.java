package io.jrxe.tools.learn;

import io.jrxe.tools.UserError;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The course's glossary (docs/course/glossary.md, copied into the jar): one "### " heading per entry, naming the term
 * and, after " / ", the other ways the tools print it; the text up to the next heading explains it.
 */
final class Glossary {
    static final String FILE = "/io/jrxe/tools/learn/course/glossary.md";

    /** One entry: its heading as written, and its text. */
    record Entry(String heading, String text) {
        List<String> names() {
            List<String> names = new ArrayList<>();
            for (String n : heading.split(" / ")) {
                names.add(key(n));
            }
            return names;
        }
    }

    private final List<Entry> entries;

    private Glossary(List<Entry> entries) {
        this.entries = entries;
    }

    static Glossary load() {
        try (InputStream in = Glossary.class.getResourceAsStream(FILE)) {
            if (in == null) {
                throw new IllegalStateException("the glossary is not in the jar");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Glossary parse(String markdown) {
        Map<String, StringBuilder> texts = new LinkedHashMap<>();
        StringBuilder current = null;
        for (String line : markdown.split("\\R", -1)) {
            if (line.startsWith("### ")) {
                current = new StringBuilder();
                texts.put(line.substring(4).strip(), current);
            } else if (line.startsWith("#")) {
                current = null;
            } else if (current != null) {
                current.append(line).append('\n');
            }
        }
        List<Entry> entries = new ArrayList<>();
        texts.forEach((heading, text) -> entries.add(new Entry(heading, text.toString().strip())));
        return new Glossary(entries);
    }

    List<Entry> entries() {
        return entries;
    }

    boolean has(String term) {
        return find(term) != null;
    }

    Entry find(String term) {
        String k = key(term);
        return entries.stream().filter(e -> e.names().contains(k)).findFirst().orElse(null);
    }

    /** The entry for {@code term}, or a one-line error that names the entries that start like it. */
    Entry entry(String term) {
        Entry e = find(term);
        if (e == null) {
            String start = key(term).isEmpty() ? "" : key(term).substring(0, 1);
            List<String> near = entries.stream().map(Entry::heading).filter(h -> key(h).startsWith(start)).toList();
            throw new UserError("no glossary entry '" + term + "'" + (near.isEmpty() || start.isEmpty() ? ""
                    : "; entries starting so: " + String.join(", ", near)) + " (jrxe learn --glossary lists them all)");
        }
        return e;
    }

    private static String key(String name) {
        return name.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    }
}
