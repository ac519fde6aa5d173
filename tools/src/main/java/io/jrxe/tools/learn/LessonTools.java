package io.jrxe.tools.learn;

import io.jrxe.tools.JrxeMain;
import io.jrxe.tools.UserError;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The jrxe commands a lesson's checker runs, in this process, exactly as a student runs them from the shell; what
 * they print is what the answer is read from. Commands that put NICs on real UDP sockets (`states`) get the
 * addresses `jrxe learn` was given.
 */
final class LessonTools {
    private final String addressA;
    private final String addressB;

    LessonTools(String addressA, String addressB) {
        this.addressA = addressA;
        this.addressB = addressB;
    }

    /** `jrxe ARGS...`'s standard output; a command that fails is the lesson's failure, said in one line. */
    String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = JrxeMain.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        if (status != 0) {
            String why = err.toString().lines().findFirst().orElse("no message");
            throw new UserError("the lesson's run 'jrxe " + String.join(" ", args) + "' failed (exit " + status + "): " + why);
        }
        return out.toString();
    }

    /** `jrxe states ARGS... --json` on the addresses `jrxe learn` was given. */
    Map<String, Object> states(String... args) {
        List<String> all = new ArrayList<>(List.of("states"));
        all.addAll(Arrays.asList(args));
        all.addAll(List.of("--json", "--addr-a", addressA, "--addr-b", addressB));
        return JsonValues.object(run(all.toArray(String[]::new)));
    }

    /** `jrxe trace ARGS... --json`: one JSON object per event. */
    List<Map<String, Object>> trace(String... args) {
        String[] all = Stream.concat(Stream.concat(Stream.of("trace"), Arrays.stream(args)), Stream.of("--json"))
                .toArray(String[]::new);
        return run(all).lines().filter(l -> !l.isBlank()).map(JsonValues::object).toList();
    }

    /**
     * The first match of {@code pattern} in what a lesson's command printed, ready for its groups; a command whose
     * output no longer has it is a lesson that no longer matches its tool, said in one line.
     */
    static Matcher found(String output, Pattern pattern, String command) {
        Matcher m = pattern.matcher(output);
        if (!m.find()) {
            throw new UserError("jrxe " + command + " printed nothing like '" + pattern.pattern()
                    + "': the lesson does not match the tool");
        }
        return m;
    }

    /**
     * A file of the jrxe folder the lesson names by its path from there (a kernel rxe capture under testdata/): found
     * from the current directory or the folders above it, where a student runs ./jrxe from.
     */
    static Path repositoryFile(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve(relative);
            if (Files.isRegularFile(file)) {
                return file;
            }
        }
        throw new UserError(relative + " not found here or in a folder above: run the course from the jrxe folder");
    }
}
