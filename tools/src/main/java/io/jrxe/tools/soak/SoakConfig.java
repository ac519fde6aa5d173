package io.jrxe.tools.soak;

import io.jrxe.verbs.QpType;
import io.jrxe.wire.port.fault.FaultDirection;
import io.jrxe.wire.port.fault.FaultSpec;
import io.jrxe.wire.sim.LinkFaults;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What one soak run does: how many operations over how many RC QPs, the seed that decides
 * everything (the operation mix, the sizes and the network's faults), the probabilities of
 * the faults the simulated network applies to every packet, in both directions, what
 * {@code --with} adds to the mix, and the faults each NIC does to its own packets ({@code --faults}: rules the
 * network's rates cannot express, such as an ACK turned into an RNR NAK or the Nth packet of each message dropped).
 */
public record SoakConfig(long seed, int ops, int qps, double loss, double reorder, double duplicate, double corrupt,
                         Set<SoakExtra> extras, FaultSpec nicFaults) {
    public static final int DEFAULT_OPS = 10_000;
    public static final int DEFAULT_QPS = 4;
    public static final double DEFAULT_LOSS = 0.05;
    public static final double DEFAULT_REORDER = 0.05;
    public static final double DEFAULT_DUPLICATE = 0.02;
    public static final double DEFAULT_CORRUPT = 0.01;
    /** More QPs than this would only make the run slower, not find more. */
    public static final int MAX_QPS = 64;

    public SoakConfig {
        String bad = problem(ops, qps, loss, reorder, duplicate, corrupt);
        if (bad != null) {
            throw new IllegalArgumentException(bad);
        }
        extras = extras.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(extras));
    }

    /** Nothing added to the mix, no fault of the NICs' own. */
    public SoakConfig(long seed, int ops, int qps, double loss, double reorder, double duplicate, double corrupt) {
        this(seed, ops, qps, loss, reorder, duplicate, corrupt, Set.of(), FaultSpec.NONE);
    }

    /** The defaults of `jrxe soak` with this seed. */
    public static SoakConfig defaults(long seed) {
        return new SoakConfig(seed, DEFAULT_OPS, DEFAULT_QPS, DEFAULT_LOSS, DEFAULT_REORDER, DEFAULT_DUPLICATE,
                DEFAULT_CORRUPT);
    }

    public SoakConfig withOps(int n) {
        return new SoakConfig(seed, n, qps, loss, reorder, duplicate, corrupt, extras, nicFaults);
    }

    public SoakConfig withFaults(double lossP, double reorderP, double duplicateP, double corruptP) {
        return new SoakConfig(seed, ops, qps, lossP, reorderP, duplicateP, corruptP, extras, nicFaults);
    }

    /** The QP pairs: the {@link #qps} RC ones, then one UC pair with {@code --with uc}, then one UD pair with {@code ud}. */
    public int pairs() {
        return qps + (extras.contains(SoakExtra.UC) ? 1 : 0) + (extras.contains(SoakExtra.UD) ? 1 : 0);
    }

    /** The transport of QP pair {@code index}: RC, then UC and UD as {@link #pairs} orders them. */
    QpType pairType(int index) {
        if (index < qps) {
            return QpType.RC;
        }
        return index == qps && extras.contains(SoakExtra.UC) ? QpType.UC : QpType.UD;
    }

    /** The same run with {@code --with}'s names ("flush", "atomic-write", "uc", "mw", "srq", "ud"); unknown ones are an IllegalArgumentException. */
    public SoakConfig with(List<String> names) {
        return new SoakConfig(seed, ops, qps, loss, reorder, duplicate, corrupt, SoakExtra.parse(names), nicFaults);
    }

    /** The same run with each NIC doing these faults to its own packets too ({@code --faults}). */
    public SoakConfig withNicFaults(FaultSpec spec) {
        return new SoakConfig(seed, ops, qps, loss, reorder, duplicate, corrupt, extras, spec);
    }

    /**
     * How long after a UC or UD operation's send completion a copy of its packets may still arrive, four times the
     * longest a packet can be on its way: the network's delay and reordering, the sender's hold on send and the
     * receiver's on receive ({@code --faults} delay and reorder).
     */
    long quarantineNanos() {
        long nics = nicFaults.longestHoldNanos(FaultDirection.SEND) + nicFaults.longestHoldNanos(FaultDirection.RECEIVE);
        return 4 * (LinkFaults.NONE.delayNanos() + SoakRun.REORDER_HOLD_NANOS + nics);
    }

    /**
     * NIC {@code index}'s (0 for A, 1 for B) faults: {@code --faults} with a seed of its own drawn from the run's, so
     * that the same seed replays the same faults, another seed meets others, and the two NICs' draws differ.
     */
    FaultSpec nicFaults(int index) {
        if (nicFaults.none()) {
            return nicFaults;
        }
        long own = nicFaults.seed() + seed * 0x9E3779B97F4A7C15L + index;
        return new FaultSpec(own, nicFaults.send(), nicFaults.receive(), nicFaults.rules(), nicFaults.text());
    }

    /** What is wrong with these values, in words a user can act on, or null when nothing is. */
    static String problem(int ops, int qps, double loss, double reorder, double duplicate, double corrupt) {
        if (ops < 0) {
            return "--ops " + ops + " is negative: give the number of operations to run (0 or more)";
        }
        if (qps < 1 || qps > MAX_QPS) {
            return "--qps " + qps + " is not in 1.." + MAX_QPS;
        }
        String p = probability("--loss", loss);
        p = p != null ? p : probability("--reorder", reorder);
        p = p != null ? p : probability("--dup", duplicate);
        return p != null ? p : probability("--corrupt", corrupt);
    }

    private static String probability(String option, double p) {
        return p >= 0 && p <= 1 ? null
                : option + " " + (Double.isFinite(p) ? java.math.BigDecimal.valueOf(p).stripTrailingZeros().toPlainString() : p)
                + " is not a probability (0..1)";
    }
}
