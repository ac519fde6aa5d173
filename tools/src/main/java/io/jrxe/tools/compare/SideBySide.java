package io.jrxe.tools.compare;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Prints two setups' observations of each step side by side, row by row: the completions on A and on B, memory,
 * the QPs' states, any verb that failed, the packets and the counters that moved. A row whose two sides differ in
 * behaviour is marked {@code !} and counted; speed, and what depends on timing or could not be seen on one side,
 * is marked {@code ~} and not compared.
 */
final class SideBySide {
    private static final int LABEL = 11;
    private static final int MIN_COLUMN = 30;
    private static final int MAX_COLUMN = 56;

    private final PrintWriter out;
    private final Set<String> leftCounters;
    private final Set<String> rightCounters;
    private final List<String> differences = new ArrayList<>();

    /** {@code leftCounters} and {@code rightCounters}: the names of the counters each setup has at all. */
    SideBySide(PrintWriter out, Set<String> leftCounters, Set<String> rightCounters) {
        this.out = out;
        this.leftCounters = leftCounters;
        this.rightCounters = rightCounters;
    }

    /** The differences in behaviour found so far, as "step: row". */
    List<String> differences() {
        return List.copyOf(differences);
    }

    void step(int number, Observation left, Observation right, String leftName, String rightName) {
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("", leftName, rightName, Mark.HEADER));
        listRows(rows, "on A", completions(left.onA()), completions(right.onA()), Mark.SAME);
        listRows(rows, "on B", completions(left.onB()), completions(right.onB()), Mark.SAME);
        if (!left.memory().equals("-") || !right.memory().equals("-")) {
            rows.add(compared("memory", left.memory(), right.memory()));
        }
        rows.add(compared("QP states", left.states(), right.states()));
        if (left.error() != null || right.error() != null) {
            rows.add(compared("failed", orDash(left.error()), orDash(right.error())));
        }
        packetRows(rows, left, right);
        counterRows(rows, left, right);
        if (left.speed() != null || right.speed() != null) {
            rows.add(new Row("speed", orDash(left.speed()), orDash(right.speed()), Mark.SHOWN));
        }
        print(number, left.title(), rows);
        String section = "";
        Set<String> noted = new TreeSet<>();
        for (Row r : rows) {
            section = r.label.isEmpty() ? section : r.label;
            if (r.mark == Mark.DIFFERENT && noted.add(section)) {
                differences.add(left.step().id() + ": " + section);
            }
        }
    }

    private void packetRows(List<Row> rows, Observation left, Observation right) {
        List<String> l = left.packets();
        List<String> r = right.packets();
        boolean timed = left.step().timed();
        if (l == null || r == null) {
            listRows(rows, "packets", l == null ? List.of("(not seen)") : summarise(l, timed),
                    r == null ? List.of("(not seen)") : summarise(r, timed), Mark.SHOWN);
            return;
        }
        listRows(rows, "packets", summarise(l, timed), summarise(r, timed), timed ? Mark.SHOWN : Mark.SAME);
    }

    /**
     * Counters of how a device scheduled its own work, not of what crossed the wire: shown, never compared.
     * ack_deferred is rxe's count of responses whose completer ran from a work queue rather than in the receive
     * path (RXE_CNT_COMPLETER_SCHED); Linux 6.12's rxe defers every one, 6.1's almost none. jrxe_ack_timer_held_up
     * counts ACK timers that fired late because the NIC thread could not run (a collector's pause, a busy machine).
     */
    private static final Set<String> SCHEDULING_COUNTERS = Set.of("ack_deferred", "jrxe_ack_timer_held_up");

    private void counterRows(List<Row> rows, Observation left, Observation right) {
        Set<String> names = new TreeSet<>(left.counters().keySet());
        names.addAll(right.counters().keySet());
        boolean first = true;
        for (String name : names) {
            String l = counter(name, left.counters(), leftCounters);
            String r = counter(name, right.counters(), rightCounters);
            boolean comparable = leftCounters.contains(name) && rightCounters.contains(name) && !left.step().timed()
                    && !SCHEDULING_COUNTERS.contains(name);
            String label = first ? "counters" : "";
            rows.add(comparable ? compared(label, l, r) : new Row(label, l, r, Mark.SHOWN));
            first = false;
        }
        if (names.isEmpty()) {
            rows.add(compared("counters", "none moved", "none moved"));
        }
    }

    private static String counter(String name, Map<String, Long> moved, Set<String> has) {
        if (!has.contains(name)) {
            return "(no " + name + ")";
        }
        long v = moved.getOrDefault(name, 0L);
        return name + (v >= 0 ? " +" : " ") + v;
    }

    /** Consecutive equal completions as one line, "1000 x RDMA_WRITE SUCCESS len=4096". */
    private static List<String> completions(List<Completion> list) {
        List<String> texts = new ArrayList<>();
        for (Completion c : list) {
            texts.add(c.describe());
        }
        return runs(texts);
    }

    /** A timed step's packets counted by direction and opcode; another step's, consecutive repeats folded. */
    private static List<String> summarise(List<String> packets, boolean timed) {
        if (!timed) {
            return runs(packets);
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String p : packets) {
            String[] words = p.split(" ", 3);
            counts.merge(words[0] + " " + (words.length > 1 ? words[1] : ""), 1, Integer::sum);
        }
        List<String> out = new ArrayList<>();
        counts.forEach((k, n) -> out.add(n + " x " + k));
        return out;
    }

    private static List<String> runs(List<String> texts) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < texts.size(); ) {
            int j = i;
            while (j < texts.size() && texts.get(j).equals(texts.get(i))) {
                j++;
            }
            out.add(j - i > 2 ? (j - i) + " x " + texts.get(i) : texts.get(i));
            if (j - i == 2) {
                out.add(texts.get(i));
            }
            i = j;
        }
        return out;
    }

    private static void listRows(List<Row> rows, String label, List<String> left, List<String> right, Mark compare) {
        int n = Math.max(1, Math.max(left.size(), right.size()));
        for (int i = 0; i < n; i++) {
            String l = i < left.size() ? left.get(i) : "-";
            String r = i < right.size() ? right.get(i) : "-";
            String rowLabel = i == 0 ? label : "";
            rows.add(compare == Mark.SAME ? compared(rowLabel, l, r) : new Row(rowLabel, l, r, compare));
        }
    }

    private static Row compared(String label, String left, String right) {
        return new Row(label, left, right, left.equals(right) ? Mark.SAME : Mark.DIFFERENT);
    }

    private static String orDash(String s) {
        return s == null ? "-" : s;
    }

    private void print(int number, String title, List<Row> rows) {
        int width = MIN_COLUMN;
        for (Row r : rows) {
            width = Math.max(width, Math.min(MAX_COLUMN, r.left.length()));
        }
        out.printf("%d. %s%n", number, title);
        for (Row r : rows) {
            out.printf("%s %-" + LABEL + "s %-" + width + "s  %s%n", r.mark.sign, r.label, r.left, r.right);
        }
        out.println();
        out.flush();
    }

    private enum Mark {
        HEADER(" "), SAME(" "), DIFFERENT("!"), SHOWN("~");

        final String sign;

        Mark(String sign) {
            this.sign = sign;
        }
    }

    private record Row(String label, String left, String right, Mark mark) {
    }
}
