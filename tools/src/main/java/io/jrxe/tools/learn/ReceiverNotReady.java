package io.jrxe.tools.learn;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Lesson 7: RNR; the answer is how many RNR NAKs jrxe1 sent in `mistakes --only rnr`, from its counter. */
final class ReceiverNotReady implements Lesson {
    private static final Pattern SENT = Pattern.compile("jrxe1 send_rnr_err=(\\d+)");
    private static final Pattern RETRY = Pattern.compile("rnr_retry (\\d+)");
    private static final Pattern STATUS = Pattern.compile("status=(\\w+)");

    @Override
    public String file() {
        return "07-rnr.md";
    }

    @Override
    public Solution solve(LessonTools tools) {
        String out = tools.run("mistakes", "--only", "rnr");
        Matcher sent = LessonTools.found(out, SENT, "mistakes --only rnr");
        Matcher retry = LessonTools.found(out, RETRY, "mistakes --only rnr");
        Matcher status = LessonTools.found(out, STATUS, "mistakes --only rnr");
        return new Solution(Answer.number(Long.parseLong(sent.group(1)), sent.group(1)),
                Map.of("rnr_retry", retry.group(1), "status", status.group(1)));
    }
}
