package io.jrxe.tools.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Every conformance case, group by group, in the order they run; and the choice of a subset by pattern. */
public final class CaseTable {
    /** The path MTU the tester asks for; the cases' packet sizes count in it. */
    public static final int MTU = 1024;

    private CaseTable() {
    }

    public static List<ConformanceCase> all() {
        List<ConformanceCase> all = new ArrayList<>();
        all.addAll(PsnCases.all());
        all.addAll(SequenceCases.all());
        all.addAll(AccessCases.all());
        all.addAll(LengthCases.all());
        all.addAll(ResponderCases.receiverNotReady());
        all.addAll(ResponderCases.atomics());
        all.addAll(ResponderCases.replay());
        all.addAll(WireCases.headers());
        all.addAll(WireCases.datagrams());
        all.addAll(WireCases.sources());
        all.addAll(WireCases.ghosts());
        return List.copyOf(all);
    }

    /**
     * The cases whose id, group or name matches {@code glob} (case-insensitive; * and ? as in a shell, a plain word
     * matches anywhere), e.g. "PSN-*", "access", "*window*".
     */
    public static List<ConformanceCase> matching(String glob) {
        Pattern p = globPattern(glob);
        return all().stream().filter(c -> p.matcher(c.id()).matches() || p.matcher(c.group()).matches()
                || p.matcher(c.name()).matches()).toList();
    }

    static Pattern globPattern(String glob) {
        StringBuilder re = new StringBuilder();
        boolean wild = glob.contains("*") || glob.contains("?");
        if (!wild) {
            re.append(".*");
        }
        for (char ch : glob.toCharArray()) {
            re.append(ch == '*' ? ".*" : ch == '?' ? "." : Pattern.quote(String.valueOf(ch)));
        }
        if (!wild) {
            re.append(".*");
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE);
    }
}
