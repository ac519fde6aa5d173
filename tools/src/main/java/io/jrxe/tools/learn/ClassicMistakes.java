package io.jrxe.tools.learn;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Lesson 9: the classic mistakes; the answer is the status of jrxe0's completion in `mistakes --only wrong-rkey`. */
final class ClassicMistakes implements Lesson {
    private static final Pattern COMPLETION = Pattern.compile("completion on jrxe0: .*status=(\\w+).*vendor_err=(\\d+)");
    private static final Pattern NAK = Pattern.compile("AETH (NAK [a-z ]+?) msn");

    @Override
    public String file() {
        return "09-classic-mistakes.md";
    }

    @Override
    public Solution solve(LessonTools tools) {
        String out = tools.run("mistakes", "--only", "wrong-rkey");
        Matcher completion = LessonTools.found(out, COMPLETION, "mistakes --only wrong-rkey");
        Matcher nak = LessonTools.found(out, NAK, "mistakes --only wrong-rkey");
        String status = completion.group(1);
        return new Solution(Answer.words(status, "IBV_WC_" + status),
                Map.of("vendor_err", completion.group(2), "nak", nak.group(1)));
    }
}
