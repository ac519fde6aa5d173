package io.jrxe.wire.sim.fabric;

import io.jrxe.wire.sim.Frame;

/** What is at the far end of a link: a switch, or a host's port. */
interface Hop {
    /** {@code frame} arrives, sent by {@code upstream} (the queue at the link's near end, the one PFC pauses). */
    void arrive(Frame frame, OutputQueue upstream);
}
