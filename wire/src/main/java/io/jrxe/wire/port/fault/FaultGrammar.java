package io.jrxe.wire.port.fault;

import io.jrxe.wire.quantity.TimeSpan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The grammar of a fault specification. Clauses are separated by {@code ;}, items within a clause by {@code ,}:
 * <pre>
 * spec     := "none" | clause (";" clause)*
 * clause   := rates | rule
 * rates    := rate ("," rate)*                      every item is key=value
 * rate     := loss=P | dup=P | reorder=P[:TIME] | delay=TIME | corrupt=P | seed=N | dir=send|recv|both
 * rule     := action ("," selector)*                the first item has no "="
 * action   := drop | dup | corrupt | delay:TIME | truncate:BYTES | rnr[:TIMER] | mark
 * selector := nth=N | op=OPCODE|GROUP | qp=QPN | dir=send|recv | p=P | count=N
 * </pre>
 * P is a probability from 0 to 1; TIME a number with its unit (ns, us, ms, s), at most 10 s; a rates clause
 * applies to both directions unless its dir says one, a rule to packets sent unless its dir says recv (mark, which
 * changes how a packet arrives, to packets received).
 * Every error is one line that names the clause, the item and what is expected.
 */
final class FaultGrammar {
    static final long MAX_TIME_NANOS = 10_000_000_000L;
    /** reorder=P without a time holds a packet for up to this long. */
    static final long DEFAULT_REORDER_NANOS = 100_000;
    private static final String RATE_KEYS = "loss, dup, reorder, delay, corrupt, seed, dir";
    private static final String ACTIONS = "drop, dup, corrupt, delay:TIME, truncate:BYTES, rnr[:TIMER], mark";
    private static final String SELECTORS = "nth, op, qp, dir, p, count";

    private FaultGrammar() {
    }

    static FaultSpec parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no fault specification");
        }
        String spec = text.strip();
        if (spec.isEmpty() || spec.equalsIgnoreCase("none")) {
            return FaultSpec.NONE;
        }
        String[] clauses = spec.split(";", -1);
        Long seed = null;
        FaultRates send = null;
        FaultRates receive = null;
        List<FaultRule> rules = new ArrayList<>();
        for (int c = 0; c < clauses.length; c++) {
            String clause = clauses[c].strip();
            String where = "clause " + (c + 1) + " '" + clause + "'";
            if (clause.isEmpty()) {
                throw new IllegalArgumentException("clause " + (c + 1) + " is empty (clauses are separated by ';')");
            }
            String[] items = clause.split(",", -1);
            for (String item : items) {
                if (item.isBlank()) {
                    throw new IllegalArgumentException(where + ": an empty item (items are separated by ',')");
                }
            }
            if (items[0].contains("=")) {
                Rates r = rates(items, where);
                if (r.seed != null) {
                    if (seed != null) {
                        throw new IllegalArgumentException(where + ": seed given twice");
                    }
                    seed = r.seed;
                }
                if (r.rates != null) {
                    if (r.send) {
                        if (send != null) {
                            throw new IllegalArgumentException(where + ": the rates of send are given twice");
                        }
                        send = r.rates;
                    }
                    if (r.receive) {
                        if (receive != null) {
                            throw new IllegalArgumentException(where + ": the rates of recv are given twice");
                        }
                        receive = r.rates;
                    }
                }
            } else {
                rules.add(rule(items, where, clause, rules.size() + 1));
            }
        }
        return new FaultSpec(seed == null ? 0 : seed, send == null ? FaultRates.NONE : send,
                receive == null ? FaultRates.NONE : receive, rules, spec);
    }

    private record Rates(FaultRates rates, Long seed, boolean send, boolean receive) {
    }

    private static Rates rates(String[] items, String where) {
        double loss = 0, dup = 0, reorder = 0, corrupt = 0;
        long reorderNanos = 0, delay = 0;
        Long seed = null;
        String dir = "both";
        Set<String> seen = new HashSet<>();
        for (String raw : items) {
            String item = raw.strip();
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(where + ": '" + item + "' is no key=value; a rates clause has only "
                        + "key=value items (" + RATE_KEYS + "); a rule's action goes first in a clause of its own");
            }
            String key = item.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = item.substring(eq + 1).strip();
            if (!seen.add(key)) {
                throw new IllegalArgumentException(where + ": " + key + " given twice");
            }
            String at = where + ": " + item;
            switch (key) {
                case "loss" -> loss = probability(value, at);
                case "dup" -> dup = probability(value, at);
                case "corrupt" -> corrupt = probability(value, at);
                case "delay" -> delay = time(value, at);
                case "reorder" -> {
                    int colon = value.indexOf(':');
                    reorder = probability(colon < 0 ? value : value.substring(0, colon), at);
                    reorderNanos = colon < 0 ? DEFAULT_REORDER_NANOS : time(value.substring(colon + 1), at);
                    if (reorderNanos == 0) {
                        throw new IllegalArgumentException(at + ": a reorder's hold must be longer than 0");
                    }
                }
                case "seed" -> seed = number(value, at, Long.MIN_VALUE, Long.MAX_VALUE, "a whole number");
                case "dir" -> dir = direction(value, at, true);
                default -> throw new IllegalArgumentException(where + ": unknown rate '" + key + "' (" + RATE_KEYS
                        + "); a rule starts with its action (" + ACTIONS + ")");
            }
        }
        boolean ratesGiven = seen.size() > (seen.contains("seed") ? 1 : 0) + (seen.contains("dir") ? 1 : 0);
        if (!ratesGiven && seen.contains("dir")) {
            throw new IllegalArgumentException(where + ": dir applies to rates, and the clause has none");
        }
        FaultRates r = ratesGiven ? new FaultRates(loss, dup, reorder, reorderNanos, delay, corrupt) : null;
        return new Rates(r, seed, !dir.equals("recv"), !dir.equals("send"));
    }

    private static FaultRule rule(String[] items, String where, String clause, int number) {
        String first = items[0].strip();
        int colon = first.indexOf(':');
        String word = (colon < 0 ? first : first.substring(0, colon)).strip().toLowerCase(Locale.ROOT);
        String arg = colon < 0 ? null : first.substring(colon + 1).strip();
        String at = where + ": " + first;
        FaultAction action;
        long argument = 0;
        switch (word) {
            case "drop" -> action = FaultAction.DROP;
            case "dup" -> action = FaultAction.DUP;
            case "corrupt" -> action = FaultAction.CORRUPT;
            case "delay" -> {
                action = FaultAction.DELAY;
                if (arg == null) {
                    throw new IllegalArgumentException(at + ": delay needs a time, as in delay:5ms");
                }
                argument = time(arg, at);
            }
            case "truncate" -> {
                action = FaultAction.TRUNCATE;
                if (arg == null) {
                    throw new IllegalArgumentException(at + ": truncate needs the bytes to cut, as in truncate:8");
                }
                argument = number(arg, at, 1, 4096, "a number of bytes from 1 to 4096");
            }
            case "rnr" -> {
                action = FaultAction.RNR;
                argument = arg == null ? 1 : number(arg, at, 0, 31, "an RNR timer value from 0 to 31 (IBTA's "
                        + "encoding: 1 is 0.01 ms, 14 is 1 ms, 0 is 655 ms)");
            }
            case "mark" -> action = FaultAction.MARK;
            default -> throw new IllegalArgumentException(where + ": '" + first + "' is neither a rule's action ("
                    + ACTIONS + ") nor a rate (key=value: " + RATE_KEYS + ")");
        }
        if (arg != null && (action == FaultAction.DROP || action == FaultAction.DUP || action == FaultAction.CORRUPT
                || action == FaultAction.MARK)) {
            throw new IllegalArgumentException(at + ": " + word + " takes no ':' value");
        }
        int nth = 0;
        String op = null;
        int qpn = -1;
        double p = 1;
        long count = 0;
        FaultDirection direction = action == FaultAction.MARK ? FaultDirection.RECEIVE : FaultDirection.SEND;
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < items.length; i++) {
            String item = items[i].strip();
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(where + ": '" + item + "' is no selector=value (" + SELECTORS
                        + "); one action per rule, each rule in a clause of its own");
            }
            String key = item.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = item.substring(eq + 1).strip();
            String sat = where + ": " + item;
            if (!seen.add(key)) {
                throw new IllegalArgumentException(where + ": " + key + " given twice");
            }
            switch (key) {
                case "nth" -> nth = (int) number(value, sat, 1, 1 << 23, "a packet's place in its message, from 1");
                case "op" -> {
                    if (!FaultRule.known(value)) {
                        throw new IllegalArgumentException(sat + ": no such opcode or group (an opcode's name, as "
                                + "RC_RDMA_WRITE_MIDDLE, or a group: " + FaultRule.GROUPS + ")");
                    }
                    op = value;
                }
                case "qp" -> qpn = (int) number(value, sat, 0, 0xFFFFFF, "a QP number from 0 to 0xffffff");
                case "dir" -> direction = direction(value, sat, false).equals("send") ? FaultDirection.SEND
                        : FaultDirection.RECEIVE;
                case "p" -> p = probability(value, sat);
                case "count" -> count = number(value, sat, 1, Long.MAX_VALUE, "how many times at most, from 1");
                default -> throw new IllegalArgumentException(where + ": unknown selector '" + key + "' (" + SELECTORS
                        + ")");
            }
        }
        if (action == FaultAction.RNR && op != null && !op.equalsIgnoreCase("ack") && !op.equalsIgnoreCase("RC_ACKNOWLEDGE")) {
            throw new IllegalArgumentException(where + ": rnr turns ACKs into RNR NAKs: leave op out or say op=ack");
        }
        if (action == FaultAction.RNR) {
            op = "ack";
        }
        if (action == FaultAction.MARK && direction == FaultDirection.SEND) {
            throw new IllegalArgumentException(where + ": mark changes how a packet arrives (a switch's mark): it "
                    + "applies to packets received, so dir=send cannot be");
        }
        return new FaultRule(action, argument, direction, nth, op, qpn, p, count, "rule " + number + " '" + clause + "'");
    }

    private static String direction(String value, String at, boolean bothAllowed) {
        String d = value.toLowerCase(Locale.ROOT);
        if (d.equals("send") || d.equals("recv") || (bothAllowed && d.equals("both"))) {
            return d;
        }
        throw new IllegalArgumentException(at + ": a direction is " + (bothAllowed ? "send, recv or both" : "send or recv"));
    }

    static double probability(String value, String at) {
        double p;
        try {
            p = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(at + ": not a number; a probability from 0 to 1, as 0.01");
        }
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(at + ": a probability from 0 to 1, as 0.01");
        }
        return p;
    }

    static long time(String value, String at) {
        long nanos;
        try {
            nanos = TimeSpan.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + ": a time is a number and its unit (ns, us, ms or s), as 200us");
        }
        if (nanos > MAX_TIME_NANOS) {
            throw new IllegalArgumentException(at + ": a time from 0 to 10s");
        }
        return nanos;
    }

    private static long number(String value, String at, long min, long max, String expected) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        long n;
        try {
            n = v.startsWith("0x") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(at + ": not a whole number; " + expected);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(at + ": " + expected);
        }
        return n;
    }
}
