package io.jrxe.tools.pingpong;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.CompletionWaiter;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** The PD, buffer, MR, completion channel and CQ both pingpongs make, released in reverse order. */
final class SessionResources implements AutoCloseable {
    final Arena arena = Arena.ofShared();
    final Pd pd;
    final MemorySegment buf;
    final Mr mr;
    final CompChannel channel;
    final Cq cq;
    final CompletionWaiter waiter;

    SessionResources(LocalDevice dev, long bufferBytes, int access, int cqEntries, boolean events, int timeoutMillis) {
        try {
            pd = dev.context().allocPd();
            buf = arena.allocate(bufferBytes, PingpongBase.PAGE_SIZE);
            buf.fill((byte) 0x7b);
            mr = pd.regMr(buf, access);
            channel = events ? dev.context().createCompChannel() : null;
            cq = dev.context().createCq(cqEntries, channel);
            // Each exchange waits for the peer's answer, as a latency test does: busy-poll like rdma-core's pingpongs.
            waiter = CompletionWaiter.forLatency(cq, channel, timeoutMillis, "the next message or its send completion");
        } catch (VerbsException e) {
            arena.close();
            throw new UserError(e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        // The QP is gone already; the memory must outlive its registration (a kernel device pins its pages).
        try {
            mr.close();
        } catch (VerbsException e) {
            // the device is closed next, with everything it holds
        }
        arena.close();
    }
}
