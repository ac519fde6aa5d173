package io.jrxe.tools.learn;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.FileErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** `jrxe learn`: the RDMA course, lesson by lesson, with answers jrxe checks by running the lesson's tool itself. */
@Command(name = "learn", mixinStandardHelpOptions = true,
        description = {
            "A guided RDMA course on jrxe's own tools, for students (no root, no RDMA hardware): without LESSON the "
                + "lessons in order; with LESSON that lesson: what it is about, the command to run, what to look at "
                + "and the question. --check ANSWER says whether the answer is right (with a hint when it is not); "
                + "jrxe finds the right one by running the lesson's command itself, so it is the value your run "
                + "shows. --answer shows it with its explanation (for teachers).",
            "docs/course/README.md is the course for teachers."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:printed, or the answer is right", "1:the answer is wrong, or bad options",
            "2:no such lesson or glossary entry, no answer given, or the lesson's run failed"})
public final class LearnCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "LESSON", description = "the lesson's number (jrxe learn lists them)")
    String lesson;

    @Option(names = "--check", paramLabel = "ANSWER", arity = "0..1", fallbackValue = "",
            description = "check ANSWER to the lesson's question: right, or wrong with a hint")
    String check;

    @Option(names = "--answer", description = "show the lesson's answer and why (for teachers)")
    boolean answer;

    @Option(names = "--glossary", paramLabel = "TERM", arity = "0..1", fallbackValue = "",
            description = "explain a term the lessons' outputs print (PSN, rkey, AETH, ...); without TERM, list them")
    String glossary;

    @Option(names = "--html", paramLabel = "DIR",
            description = "write the whole course as one HTML page, DIR/index.html (answers folded under each question)")
    Path html;

    @Option(names = "--addr-a", paramLabel = "IP", defaultValue = "127.0.0.1",
            description = "for lessons that run `jrxe states` (2, 3, 8): jrxe0's address, as states' --addr-a (default: ${DEFAULT-VALUE})")
    String addressA;

    @Option(names = "--addr-b", paramLabel = "IP", defaultValue = "127.0.0.2",
            description = "for those lessons: jrxe1's address, as states' --addr-b (default: ${DEFAULT-VALUE})")
    String addressB;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (html != null) {
            writePage(out);
            return 0;
        }
        if (glossary != null) {
            printGlossary(out);
            return 0;
        }
        if (lesson == null) {
            if (check != null || answer) {
                throw new UserError("--check and --answer need a lesson: jrxe learn N --check ANSWER");
            }
            printList(out);
            return 0;
        }
        Lesson chosen = Course.lesson(lesson);
        int number = Course.numberOf(chosen);
        LessonText text = LessonText.load(chosen.file());
        if (check != null) {
            if (check.isBlank()) {
                throw new UserError("--check needs your answer: jrxe learn " + number + " --check ANSWER");
            }
            Solution solution = chosen.solve(new LessonTools(addressA, addressB));
            if (solution.answer().accepts(check)) {
                out.println("right: " + check.strip() + " is the answer to lesson " + number + "'s question");
                return 0;
            }
            out.println("wrong: not " + check.strip() + ". Hint: " + oneLine(text.hint()));
            return 1;
        }
        if (answer) {
            Solution solution = chosen.solve(new LessonTools(addressA, addressB));
            out.println("Lesson " + number + ": " + text.title());
            out.println();
            out.println("Answer: " + solution.answer().shown());
            out.println();
            out.println(text.explained(solution));
            return 0;
        }
        printLesson(out, number, text);
        return 0;
    }

    private static void printList(PrintWriter out) {
        out.println("jrxe learn: an RDMA course on jrxe's tools, " + Course.LESSONS.size() + " lessons");
        out.println();
        for (int i = 0; i < Course.LESSONS.size(); i++) {
            out.printf("  %2d  %s%n", i + 1, LessonText.load(Course.LESSONS.get(i).file()).title());
        }
        out.println();
        out.println("The lessons' commands run from the jrxe folder, as ./jrxe trace, ./jrxe states, ...");
        out.println("jrxe learn N prints lesson N; jrxe learn N --check ANSWER checks your answer;");
        out.println("jrxe learn --glossary TERM explains a term the outputs print.");
    }

    private static void printLesson(PrintWriter out, int number, LessonText text) {
        out.println("Lesson " + number + " of " + Course.LESSONS.size() + ": " + text.title());
        out.println();
        out.println(text.about());
        out.println();
        out.println("Run:");
        out.println(indented(text.run().replace("```", "").strip()));
        out.println();
        out.println("Look at:");
        out.println(indented(text.lookAt()));
        out.println();
        out.println("Question:");
        out.println(indented(text.question()));
        out.println();
        out.println("Check your answer: jrxe learn " + number + " --check ANSWER");
        out.println("Terms: " + String.join(", ", text.terms()) + " (jrxe learn --glossary TERM)");
    }

    private void printGlossary(PrintWriter out) {
        Glossary g = Glossary.load();
        if (glossary.isBlank()) {
            List<String> headings = g.entries().stream().map(Glossary.Entry::heading).toList();
            out.println("jrxe learn --glossary TERM explains one of these:");
            headings.forEach(h -> out.println("  " + h));
            return;
        }
        Glossary.Entry e = g.entry(glossary);
        out.println(e.heading());
        out.println(indented(e.text()));
    }

    private void writePage(PrintWriter out) {
        String page = CoursePage.html(Course.LESSONS, new LessonTools(addressA, addressB), Glossary.load());
        Path file = html.resolve("index.html");
        try {
            Files.createDirectories(html);
            Files.writeString(file, page);
        } catch (IOException e) {
            throw new UserError("cannot write " + file + ": " + FileErrors.why(e), e);
        }
        out.println(file);
    }

    private static String indented(String text) {
        return text.lines().map(l -> l.isEmpty() ? l : "  " + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
