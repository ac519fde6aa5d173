package io.jrxe.tools.learn;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A lesson's markdown file read into its parts: the title (the "# " line), then one part per "## " heading (About,
 * Run, Look at, Question, Hint, Answer, Terms). The commands are the lines of Run's code block that start with
 * "jrxe "; the terms are Terms' comma-separated list, each an entry of the glossary.
 */
record LessonText(String title, String about, List<String> commands, String run, String lookAt, String question,
                  String hint, String answer, List<String> terms) {
    /** Where the lessons' files are in the jar (the build copies docs/course there). */
    static final String FOLDER = "/io/jrxe/tools/learn/course/lessons/";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

    static LessonText load(String file) {
        try (InputStream in = LessonText.class.getResourceAsStream(FOLDER + file)) {
            if (in == null) {
                throw new IllegalStateException("lesson file " + file + " is not in the jar");
            }
            return parse(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static LessonText parse(String file, String markdown) {
        String title = null;
        Map<String, StringBuilder> parts = new LinkedHashMap<>();
        StringBuilder current = null;
        for (String line : markdown.split("\\R", -1)) {
            if (line.startsWith("# ") && title == null) {
                title = line.substring(2).strip();
            } else if (line.startsWith("## ")) {
                current = new StringBuilder();
                parts.put(line.substring(3).strip(), current);
            } else if (current != null) {
                current.append(line).append('\n');
            }
        }
        String run = part(file, parts, "Run");
        List<String> commands = run.lines().map(String::strip).filter(l -> l.startsWith("jrxe ")).toList();
        if (title == null || commands.isEmpty()) {
            throw new IllegalStateException("lesson file " + file + " has no title or no command in its Run part");
        }
        List<String> terms = Arrays.stream(part(file, parts, "Terms").split(","))
                .map(String::strip).filter(t -> !t.isEmpty()).toList();
        return new LessonText(title, part(file, parts, "About"), commands, run, part(file, parts, "Look at"),
                part(file, parts, "Question"), part(file, parts, "Hint"), part(file, parts, "Answer"), terms);
    }

    private static String part(String file, Map<String, StringBuilder> parts, String name) {
        StringBuilder b = parts.get(name);
        if (b == null) {
            throw new IllegalStateException("lesson file " + file + " has no '## " + name + "' part");
        }
        return b.toString().strip();
    }

    /** The answer's explanation with {answer} and each fact of the run put in. */
    String explained(Solution solution) {
        Map<String, String> values = new LinkedHashMap<>(solution.facts());
        values.put("answer", solution.answer().shown());
        Matcher m = PLACEHOLDER.matcher(answer);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("the answer text names {" + m.group(1) + "}, which the lesson's run does not give");
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(value));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** The commands as picocli's arguments (split on spaces; the course's commands quote nothing). */
    static List<String[]> arguments(List<String> commands) {
        List<String[]> all = new ArrayList<>();
        for (String c : commands) {
            all.add(c.substring("jrxe ".length()).strip().split("\\s+"));
        }
        return all;
    }
}
