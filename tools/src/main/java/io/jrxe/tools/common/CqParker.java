package io.jrxe.tools.common;

import io.jrxe.verbs.Cq;
import io.jrxe.verbs.emulated.EmulatedExtension;
import io.jrxe.verbs.idle.BackoffIdle;

/**
 * How a waiter with nothing to do parks until its CQ has a completion ({@link BackoffIdle}'s parks): on a jrxe
 * NIC's CQ, which wakes its parker as it writes one (the emulated provider's
 * {@link EmulatedExtension#sleepUntilCompletion}); on any other CQ it cannot, and the waiter parks for its time.
 */
public final class CqParker {
    /** The parker of a CQ that cannot end a park early (a kernel device's, or none). */
    public static final BackoffIdle.Parker NONE = nanos -> false;

    private CqParker() {
    }

    /** The parker of {@code cq} (null: none), found once for a loop that waits on it. */
    public static BackoffIdle.Parker of(Cq cq) {
        return EmulatedExtension.of(cq).<BackoffIdle.Parker>map(jrxe -> nanos -> jrxe.sleepUntilCompletion(cq, nanos))
                .orElse(NONE);
    }
}
