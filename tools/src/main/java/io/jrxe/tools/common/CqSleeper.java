package io.jrxe.tools.common;

import io.jrxe.verbs.Cq;
import io.jrxe.verbs.emulated.EmulatedExtension;

/**
 * How a waiter with nothing to do sleeps until its CQ has a completion: on a jrxe NIC's CQ, which wakes its sleeper
 * as it writes one (the emulated provider's {@link EmulatedExtension#sleepUntilCompletion}); on any other CQ it
 * cannot, and the waiter parks for its time instead.
 */
@FunctionalInterface
public interface CqSleeper {
    /** The sleeper of a CQ that cannot wake one (a kernel device's, or none). */
    CqSleeper NONE = nanos -> false;

    /**
     * Sleeps until a completion comes or {@code nanos} pass, and may return early; false at once when it cannot,
     * and the caller then waits its own way.
     */
    boolean sleep(long nanos);

    /** The sleeper of {@code cq} (null: none), found once for a loop that waits on it. */
    static CqSleeper of(Cq cq) {
        return EmulatedExtension.of(cq).<CqSleeper>map(jrxe -> nanos -> jrxe.sleepUntilCompletion(cq, nanos))
                .orElse(NONE);
    }
}
