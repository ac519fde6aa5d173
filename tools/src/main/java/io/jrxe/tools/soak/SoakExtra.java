package io.jrxe.tools.soak;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code --with} adds to the mix. Off by default, so that a seed replays the run it always did; with any
 * of them the draws change, and a seed replays only with the same {@code --with}.
 */
public enum SoakExtra {
    /** RC ATOMIC WRITE: 8 bytes replace an atomic cell, in order with the other atomics on it. */
    ATOMIC_WRITE("atomic-write", OperationKind.ATOMIC_WRITE),
    /** RC FLUSH of a range of the responder's memory: it must complete, in order, and change no byte. */
    FLUSH("flush", OperationKind.FLUSH),
    /**
     * One more QP pair, of UC: SENDs and WRITEs with and without immediate, which the network may lose (then
     * they are expected failures), deliver twice or in part, but never wrong. See {@link StandingReceives}.
     */
    UC("uc"),
    /**
     * Type 2 memory windows over the RC pairs' memory: RDMA WRITE and READ through a window's R_Key, and windows
     * bound (BIND_MW) and invalidated (LOCAL_INV, and the peer's SEND_WITH_INV) on the way. See {@link MemoryWindows}.
     */
    MW("mw", OperationKind.MW_WRITE, OperationKind.MW_READ, OperationKind.MW_INVALIDATE),
    /** The RC pairs' receives come from one shared receive queue per NIC, kept filled. See {@link SrqReceives}. */
    SRQ("srq"),
    /**
     * One more QP pair, of UD: SENDs of up to one MTU, which the network may lose (expected failures) or deliver
     * twice (UD has no duplicate detection: both count as received), but never wrong. See {@link StandingReceives}.
     */
    UD("ud");

    /** As the option names it. */
    final String optionName;
    /** The kinds it adds to the RC draw, in this order (none for a new QP pair or a new way to receive). */
    final OperationKind[] kinds;

    SoakExtra(String optionName, OperationKind... kinds) {
        this.optionName = optionName;
        this.kinds = kinds;
    }

    /** Every name {@code --with} takes, comma-separated. */
    static String names() {
        StringBuilder b = new StringBuilder();
        for (SoakExtra e : values()) {
            b.append(b.isEmpty() ? "" : ",").append(e.optionName);
        }
        return b.toString();
    }

    /** The extras these names ask for. */
    static Set<SoakExtra> parse(List<String> names) {
        String bad = problem(names);
        if (bad != null) {
            throw new IllegalArgumentException(bad);
        }
        Set<SoakExtra> extras = EnumSet.noneOf(SoakExtra.class);
        for (String name : names) {
            extras.add(named(name));
        }
        return extras;
    }

    /** What is wrong with these names, in words a user can act on, or null when nothing is. */
    static String problem(List<String> names) {
        for (String name : names) {
            if (named(name) == null) {
                return "--with " + name + " is not one of " + names();
            }
        }
        return null;
    }

    private static SoakExtra named(String name) {
        for (SoakExtra e : values()) {
            if (e.optionName.equals(name.trim())) {
                return e;
            }
        }
        return null;
    }
}
