package io.jrxe.tools.learn;

import io.jrxe.tools.common.MarkupText;

import java.util.List;

/**
 * The whole course as one HTML page a teacher can hand out or put on a web server: every lesson with its commands,
 * what to look at and its question, the answer (from a real run, as `--answer` gives it) folded in a details element
 * a student opens when done, and the glossary. It needs no network and no script.
 */
final class CoursePage {
    private CoursePage() {
    }

    static String html(List<Lesson> lessons, LessonTools tools, Glossary glossary) {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>An RDMA course on jrxe</title>\n<style>\n")
                .append("body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; color: #1b1b1b; "
                        + "line-height: 1.45; }\n")
                .append("section.lesson { border-top: 2px solid #3b6ea5; margin-top: 2em; }\n")
                .append("pre { background: #eef2f7; padding: 0.6em 1em; overflow-x: auto; }\n")
                .append("code { background: #eef2f7; padding: 0 0.2em; }\n")
                .append("h3 { margin-bottom: 0.3em; }\n")
                .append("details { background: #fff8e5; border: 1px solid #e0c46c; padding: 0.5em 1em; margin-top: 1em; }\n")
                .append("summary { cursor: pointer; font-weight: bold; }\n")
                .append("dt { font-weight: bold; margin-top: 0.8em; }\n")
                .append("</style>\n</head>\n<body>\n<h1>An RDMA course on jrxe</h1>\n")
                .append("<p>Each lesson names a command to run in the jrxe folder (<code>./jrxe ...</code>), what to look at in ")
                .append("its output and a question. Check an answer with <code>./jrxe learn N --check ANSWER</code>, or open ")
                .append("the answer below the question when done. No root and no RDMA hardware are needed.</p>\n<ol>\n");
        for (int i = 0; i < lessons.size(); i++) {
            h.append("<li><a href=\"#lesson-").append(i + 1).append("\">")
                    .append(MarkupText.escape(LessonText.load(lessons.get(i).file()).title())).append("</a></li>\n");
        }
        h.append("<li><a href=\"#glossary\">Glossary</a></li>\n</ol>\n");
        for (int i = 0; i < lessons.size(); i++) {
            Lesson lesson = lessons.get(i);
            LessonText text = LessonText.load(lesson.file());
            Solution solution = lesson.solve(tools);
            int n = i + 1;
            h.append("<section class=\"lesson\" id=\"lesson-").append(n).append("\">\n<h2>Lesson ").append(n).append(": ")
                    .append(MarkupText.escape(text.title())).append("</h2>\n")
                    .append(MarkdownHtml.of(text.about()))
                    .append("<h3>Run</h3>\n").append(MarkdownHtml.of(text.run()))
                    .append("<h3>Look at</h3>\n").append(MarkdownHtml.of(text.lookAt()))
                    .append("<h3>Question</h3>\n").append(MarkdownHtml.of(text.question()))
                    .append("<p>Check: <code>./jrxe learn ").append(n).append(" --check ANSWER</code></p>\n")
                    .append("<details><summary>Answer</summary>\n<p><strong>")
                    .append(MarkupText.escape(solution.answer().shown())).append("</strong></p>\n")
                    .append(MarkdownHtml.of(text.explained(solution))).append("</details>\n")
                    .append("<p>Terms: ").append(MarkupText.escape(String.join(", ", text.terms()))).append("</p>\n")
                    .append("</section>\n");
        }
        h.append("<section class=\"lesson\" id=\"glossary\">\n<h2>Glossary</h2>\n<dl>\n");
        for (Glossary.Entry e : glossary.entries()) {
            h.append("<dt>").append(MarkupText.escape(e.heading())).append("</dt>\n<dd>")
                    .append(MarkdownHtml.inline(e.text().replaceAll("\\s*\\R\\s*", " "))).append("</dd>\n");
        }
        h.append("</dl>\n</section>\n</body>\n</html>\n");
        return h.toString();
    }
}
