package io.jrxe.verbs.nativ;

import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.idle.CompletionPoll;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvCompChannel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A completion channel (struct ibv_comp_channel): ibv_get_cq_event once its fd is readable,
 * each event acknowledged at once (ibv_ack_cq_events), so that destroying a CQ never waits.
 */
final class NativeCompChannel implements CompChannel {
    private final CloseOnce closing = new CloseOnce();
    private final NativeContext context;
    private final MemorySegment channel;

    NativeCompChannel(NativeContext context, MemorySegment channel) {
        this.context = context;
        this.channel = channel.reinterpret(IbvCompChannel.SIZE);
    }

    MemorySegment channel() {
        return channel;
    }

    @Override
    public Cq awaitEvent(long timeout, TimeUnit unit) throws VerbsException, InterruptedException {
        if (!FdWait.readable(channel.get(JAVA_INT, IbvCompChannel.FD), unit.toMillis(timeout))) {
            return null;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cq = arena.allocate(ADDRESS);
            MemorySegment cqContext = arena.allocate(ADDRESS);
            context.lib.check("ibv_get_cq_event", channel, cq, cqContext);
            MemorySegment which = cq.get(ADDRESS, 0);
            context.lib.call("ibv_ack_cq_events", which, 1);
            return context.cq(which.address());
        }
    }

    /** Arms the CQ, polls, and sleeps on the kernel's event, as the API's contract says. */
    @Override
    public int poll(Cq cq, WorkCompletion[] wcs, long timeout, TimeUnit unit) throws VerbsException, InterruptedException {
        return CompletionPoll.byEvents(this, cq, wcs, unit.toNanos(timeout));
    }

    @Override
    public void close() throws VerbsException {
        closing.close(() -> {
            context.lib.check("ibv_destroy_comp_channel", channel);
        });
    }
}
