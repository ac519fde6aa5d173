package io.jrxe.wire.port.fault;

import io.jrxe.wire.opcode.MessagePosition;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides what is done to each packet of one direction: the first rule that selects it and fires decides;
 * a packet no rule took meets the rates (loss first; a packet not lost may then be corrupted, duplicated and held).
 * Its random draws come from its own seeded stream (SplitMix64), so the Nth packet of a direction meets the same
 * faults in every run with the same seed, whatever the other direction does. The decision is kept in fields,
 * read by the port until the next packet: nothing is allocated per packet. The NIC thread's only.
 */
final class FaultDecider {
    private static final int OPCODE_ACKNOWLEDGE = 0x11;

    final FaultDirection direction;
    private final FaultRates rates;
    private final FaultRule[] rules;
    private final boolean[][] masks;
    private final long[] fired;
    private final MessagePositions[] positions;
    private final SingleWriterCounter[] counts = new SingleWriterCounter[FaultAction.values().length];
    private long state;

    // The decision for the packet last decided.
    boolean drop;
    boolean duplicate;
    /** The bit to flip, from the packet's first byte, or -1. */
    int corruptBit;
    long holdNanos;
    /** Bytes cut off the payload's end, or 0. */
    int truncateBy;
    /** The RNR timer an ACK becomes an RNR NAK with, or -1. */
    int rnrTimer;
    /** The packet arrives marked CE if it arrives ECN-capable. */
    boolean markCe;
    /** The rule that decided, or null for the rates. */
    FaultRule rule;
    private boolean reordered;

    FaultDecider(FaultDirection direction, FaultSpec spec) {
        this.direction = direction;
        this.rates = spec.rates(direction);
        List<FaultRule> mine = new ArrayList<>();
        for (FaultRule r : spec.rules()) {
            if (r.direction() == direction) {
                mine.add(r);
            }
        }
        rules = mine.toArray(FaultRule[]::new);
        masks = new boolean[rules.length][];
        fired = new long[rules.length];
        positions = new MessagePositions[rules.length];
        for (int i = 0; i < rules.length; i++) {
            masks[i] = rules[i].opcodeMask();
            positions[i] = rules[i].nth() > 0 ? new MessagePositions() : null;
        }
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new SingleWriterCounter();
        }
        state = spec.seed() ^ (direction == FaultDirection.SEND ? 0x5EED_5E4DL : 0x5EED_4EC7L);
    }

    /** Whether anything may ever be done to this direction's packets. */
    boolean active() {
        return rules.length > 0 || rates.any();
    }

    void registerCounters(CounterRegistry registry) {
        for (FaultAction a : FaultAction.values()) {
            registry.register(FaultyPort.COUNTER_PREFIX + direction.counterTag() + "_" + a.counterWord(), counts[a.ordinal()]);
        }
    }

    /** Decides for packet[offset, offset+length); true when something is to be done to it. */
    boolean decide(ByteBuffer packet, int offset, int length) {
        drop = false;
        duplicate = false;
        corruptBit = -1;
        holdNanos = 0;
        truncateBy = 0;
        rnrTimer = -1;
        markCe = false;
        rule = null;
        reordered = false;
        if (rules.length > 0 && length >= 12 && ruleFires(packet, offset, length)) {
            return true;
        }
        return rates.any() && rates(length);
    }

    private boolean ruleFires(ByteBuffer packet, int offset, int length) {
        int code = packet.get(offset) & 0xFF;
        int qpn = packet.getInt(offset + 4) & 0xFFFFFF;
        int psn = packet.getInt(offset + 8) & 0xFFFFFF;
        for (int i = 0; i < rules.length; i++) {
            FaultRule r = rules[i];
            if (!masks[i][code] && r.nth() == 0 || r.qpn() >= 0 && r.qpn() != qpn) {
                continue;
            }
            MessagePositions where = positions[i];
            boolean response = false;
            if (where != null) {
                Opcode o = Opcode.of(code);
                if (o == null) {
                    continue;
                }
                response = o.isResponse();
                MessagePosition p = o.position();
                int place = where.place(qpn, response, p == MessagePosition.FIRST || p == MessagePosition.ONLY, psn);
                if (!masks[i][code] || place != r.nth() || !where.fresh(qpn, response, psn)) {
                    continue;
                }
            }
            if (r.count() > 0 && fired[i] >= r.count()) {
                continue;
            }
            if (r.action() == FaultAction.RNR && !(code == OPCODE_ACKNOWLEDGE && length >= 16
                    && (packet.get(offset + 12) & 0xE0) == 0)) {
                continue; // only a positive ACK becomes an RNR NAK
            }
            if (r.probability() < 1 && nextDouble() >= r.probability()) {
                continue;
            }
            if (where != null) {
                where.hit(qpn, response, psn);
            }
            fired[i]++;
            rule = r;
            switch (r.action()) {
                case DROP -> drop = true;
                case DUP -> duplicate = true;
                case CORRUPT -> corruptBit = bit(length);
                case DELAY -> holdNanos = r.argument();
                case TRUNCATE -> truncateBy = (int) Math.max(0, Math.min(r.argument(), length - 16));
                case RNR -> rnrTimer = (int) r.argument();
                case MARK -> markCe = true;
                case REORDER -> throw new IllegalStateException("reorder is a rate, not a rule's action");
            }
            counts[r.action().ordinal()].increment();
            return true;
        }
        return false;
    }

    private boolean rates(int length) {
        if (rates.loss() > 0 && nextDouble() < rates.loss()) {
            drop = true;
            counts[FaultAction.DROP.ordinal()].increment();
            return true;
        }
        boolean any = false;
        if (rates.corrupt() > 0 && nextDouble() < rates.corrupt()) {
            corruptBit = bit(length);
            counts[FaultAction.CORRUPT.ordinal()].increment();
            any = true;
        }
        if (rates.duplicate() > 0 && nextDouble() < rates.duplicate()) {
            duplicate = true;
            counts[FaultAction.DUP.ordinal()].increment();
            any = true;
        }
        if (rates.delayNanos() > 0) {
            holdNanos = rates.delayNanos();
            counts[FaultAction.DELAY.ordinal()].increment();
            any = true;
        }
        if (rates.reorder() > 0 && nextDouble() < rates.reorder()) {
            holdNanos += 1 + (long) (nextDouble() * rates.reorderNanos());
            reordered = true;
            counts[FaultAction.REORDER.ordinal()].increment();
            any = true;
        }
        return any;
    }

    /**
     * A bit of the packet's headers or payload that its ICRC covers: the ICRC check then fails as a link's error
     * makes it. Not the ICRC's own bits, nor the BTH's fifth byte (FECN, BECN and the reserved bits), which the ICRC
     * leaves out: a bit flipped there would pass the check.
     */
    private int bit(int length) {
        int bits = Math.max(40, (length - 4) * 8) - 8;
        int b = (int) (nextDouble() * bits);
        return b < 32 ? b : b + 8;
    }

    /** What was done, for the capture's comment; made only when a capture is on. */
    String describe() {
        StringBuilder s = new StringBuilder("fault on ").append(direction.word()).append(": ");
        int start = s.length();
        if (drop) {
            s.append(rule == null ? "lost" : "dropped");
        }
        if (rnrTimer >= 0) {
            s.append("ACK turned into an RNR NAK, timer ").append(rnrTimer);
        }
        if (markCe) {
            s.append("marked CE (if it came ECN-capable)");
        }
        if (truncateBy > 0) {
            s.append("truncated by ").append(truncateBy).append(" bytes");
        }
        if (corruptBit >= 0) {
            s.append(s.length() > start ? ", " : "").append("bit ").append(corruptBit).append(" flipped");
        }
        if (duplicate) {
            s.append(s.length() > start ? ", " : "").append("duplicated");
        }
        if (holdNanos > 0) {
            s.append(s.length() > start ? ", " : "").append(reordered ? "reordered: " : "").append("held ")
                    .append(micros(holdNanos));
        }
        s.append(" (").append(rule != null ? rule.text() : ratesText()).append(')');
        return s.toString();
    }

    private String ratesText() {
        return "rates loss=" + rates.loss() + " dup=" + rates.duplicate() + " reorder=" + rates.reorder() + ":"
                + micros(rates.reorderNanos()) + " delay=" + micros(rates.delayNanos()) + " corrupt=" + rates.corrupt();
    }

    private static String micros(long nanos) {
        return nanos % 1000 == 0 ? nanos / 1000 + "us" : nanos + "ns";
    }

    private double nextDouble() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }
}
