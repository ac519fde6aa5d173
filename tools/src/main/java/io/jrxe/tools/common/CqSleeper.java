package io.jrxe.tools.common;

import io.jrxe.verbs.Cq;
import io.jrxe.verbs.emulated.EmulatedExtension;
import io.jrxe.wire.idle.BackoffIdle;

/**
 * How a waiter with nothing to do sleeps until its CQ has a completion ({@link BackoffIdle}'s parks): on a jrxe
 * NIC's CQ, which wakes its sleeper as it writes one (the emulated provider's
 * {@link EmulatedExtension#sleepUntilCompletion}); on any other CQ it cannot, and the waiter parks for its time.
 */
public final class CqSleeper {
    /** The sleeper of a CQ that cannot wake one (a kernel device's, or none). */
    public static final BackoffIdle.Sleeper NONE = nanos -> false;

    private CqSleeper() {
    }

    /** The sleeper of {@code cq} (null: none), found once for a loop that waits on it. */
    public static BackoffIdle.Sleeper of(Cq cq) {
        return EmulatedExtension.of(cq).<BackoffIdle.Sleeper>map(jrxe -> nanos -> jrxe.sleepUntilCompletion(cq, nanos))
                .orElse(NONE);
    }
}
