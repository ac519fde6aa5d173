package io.jrxe.tools.learn;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Lesson 6: what registering memory costs, and the MTT a buffer needs; the answer is `mtt-size`'s table size. */
final class RegistrationCost implements Lesson {
    private static final Pattern PAGES = Pattern.compile("pages\\s+=.*= ([\\d,]+)");
    private static final Pattern TABLE = Pattern.compile("table size\\s+=.*= ([\\d,]+) B");

    @Override
    public String file() {
        return "06-registration-cost.md";
    }

    @Override
    public Solution solve(LessonTools tools) {
        String out = tools.run("mtt-size", "--buffer", "1G", "--page", "4K", "--entry", "8");
        Matcher pages = LessonTools.found(out, PAGES, "mtt-size");
        Matcher table = LessonTools.found(out, TABLE, "mtt-size");
        String bytes = table.group(1);
        return new Solution(Answer.number(Long.parseLong(bytes.replace(",", "")), bytes), Map.of("pages", pages.group(1)));
    }
}
