package io.jrxe.wire.port.fault;

import java.util.List;

/**
 * The faults a NIC does to its own packets, on whatever port it has: random ones by rate for each direction,
 * targeted ones by rule, and the seed every random choice is drawn from, so that the same traffic meets the same
 * faults. {@link #parse} reads the grammar of {@code --faults} and of a device file's {@code faults} key
 * (docs/commands.md); {@link #text()} is what was parsed.
 */
public record FaultSpec(long seed, FaultRates send, FaultRates receive, List<FaultRule> rules, String text) {
    /** No faults: the port is left as it is. */
    public static final FaultSpec NONE = new FaultSpec(0, FaultRates.NONE, FaultRates.NONE, List.of(), "none");

    public FaultSpec {
        rules = List.copyOf(rules);
    }

    /**
     * Reads a fault specification.
     *
     * @throws IllegalArgumentException with one line that names the bad part and what is expected there
     */
    public static FaultSpec parse(String text) {
        return FaultGrammar.parse(text);
    }

    /** Whether no packet is ever touched. */
    public boolean none() {
        return !send.any() && !receive.any() && rules.isEmpty();
    }

    /** The rates of one direction. */
    public FaultRates rates(FaultDirection d) {
        return d == FaultDirection.SEND ? send : receive;
    }

    /**
     * The longest this spec holds a packet of one direction back: the rates' delay plus their longest reordering,
     * or a delay rule's time, whichever is more. What a peer that waits for every copy of a packet must allow for.
     */
    public long longestHoldNanos(FaultDirection d) {
        FaultRates r = rates(d);
        long most = r.delayNanos() + r.reorderNanos();
        for (FaultRule rule : rules) {
            if (rule.direction() == d && rule.action() == FaultAction.DELAY) {
                most = Math.max(most, rule.argument());
            }
        }
        return most;
    }

    /** Whether anything is done to the packets of one direction. */
    public boolean any(FaultDirection d) {
        if (rates(d).any()) {
            return true;
        }
        for (FaultRule r : rules) {
            if (r.direction() == d) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
