package io.jrxe.tools.view;

import io.jrxe.wire.dissect.StrictJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A page `jrxe view` wrote: its HTML, and its data read back by a strict JSON parser ({@link StrictJson}). */
record PageData(String html, Map<String, Object> data) {
    private static final String OPEN = "<script type=\"application/json\" id=\"ladder-data\">";

    static PageData read(Path page) {
        try {
            String html = Files.readString(page, StandardCharsets.UTF_8);
            return new PageData(html, StrictJson.parseObject(dataText(html)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The data's JSON text as the page holds it, inside its script element. */
    String dataText() {
        return dataText(html);
    }

    private static String dataText(String html) {
        int from = html.indexOf(OPEN);
        int to = html.indexOf("</script>", from);
        if (from < 0 || to < 0) {
            throw new AssertionError("no ladder data in the page");
        }
        return html.substring(from + OPEN.length(), to);
    }

    @SuppressWarnings("unchecked")
    List<Map<String, Object>> list(String key) {
        return (List<Map<String, Object>>) data.get(key);
    }

    List<Map<String, Object>> packets() {
        return list("packets");
    }

    List<Map<String, Object>> connections() {
        return list("connections");
    }

    List<Map<String, Object>> messages() {
        return list("messages");
    }

    static long number(Map<String, Object> object, String key) {
        return ((BigDecimal) object.get(key)).longValueExact();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Map<String, Object> object, String key) {
        return (Map<String, Object>) object.get(key);
    }

    /** The names of a packet's marks, from its flag bits and the page's table of flag names. */
    @SuppressWarnings("unchecked")
    List<String> flags(Map<String, Object> packet) {
        List<String> names = (List<String>) data.get("flags");
        long bits = number(packet, "k");
        return names.stream().filter(n -> (bits & (1L << names.indexOf(n))) != 0).toList();
    }

    /** The page's summary table rows, as cell texts. */
    List<List<String>> summaryRows() {
        int body = html.indexOf("<tbody>");
        int end = html.indexOf("</tbody>", body);
        return html.substring(body, end).lines().filter(l -> l.startsWith("<tr"))
                .map(l -> List.of(l.replaceAll("^<tr[^>]*><td>", "").replaceAll("</td></tr>$", "").split("</td><td>")))
                .toList();
    }
}
