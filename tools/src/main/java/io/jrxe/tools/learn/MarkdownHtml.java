package io.jrxe.tools.learn;

import io.jrxe.tools.common.MarkupText;

import java.util.ArrayList;
import java.util.List;

/**
 * The little markdown the course's files use, as HTML: paragraphs, "- " lists, ``` code blocks, `code` in a line,
 * and the lines of a multiple choice ("a) ...") each on its own line.
 */
final class MarkdownHtml {
    private MarkdownHtml() {
    }

    static String of(String markdown) {
        StringBuilder html = new StringBuilder();
        List<String> block = new ArrayList<>();
        boolean inCode = false;
        for (String line : markdown.split("\\R", -1)) {
            if (line.strip().startsWith("```")) {
                if (inCode) {
                    html.append("<pre>").append(MarkupText.escape(String.join("\n", block))).append("</pre>\n");
                    block.clear();
                } else {
                    flush(html, block);
                }
                inCode = !inCode;
            } else if (inCode) {
                block.add(line);
            } else if (line.isBlank()) {
                flush(html, block);
            } else {
                block.add(line);
            }
        }
        flush(html, block);
        return html.toString();
    }

    private static void flush(StringBuilder html, List<String> block) {
        if (block.isEmpty()) {
            return;
        }
        if (block.getFirst().startsWith("- ")) {
            html.append("<ul>\n");
            StringBuilder item = null;
            for (String line : block) {
                if (line.startsWith("- ")) {
                    if (item != null) {
                        html.append("<li>").append(inline(item.toString())).append("</li>\n");
                    }
                    item = new StringBuilder(line.substring(2));
                } else {
                    item.append(' ').append(line.strip());
                }
            }
            html.append("<li>").append(inline(item.toString())).append("</li>\n</ul>\n");
        } else {
            StringBuilder p = new StringBuilder();
            for (String line : block) {
                if (!p.isEmpty()) {
                    p.append(line.matches("[a-z]\\) .*") ? "<br>\n" : "\n");
                }
                p.append(inline(line));
            }
            html.append("<p>").append(p).append("</p>\n");
        }
        block.clear();
    }

    /** A line's text escaped, with `code` marked. */
    static String inline(String text) {
        String[] parts = text.split("`", -1);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            String escaped = MarkupText.escape(parts[i]);
            sb.append(i % 2 == 1 && i < parts.length - 1 ? "<code>" + escaped + "</code>" : (i % 2 == 1 ? "`" : "") + escaped);
        }
        return sb.toString();
    }
}
