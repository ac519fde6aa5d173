package io.jrxe.tools.pingpong;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.CompletionWaiter;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.verbs.AddressSpace;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.OdpCapabilities;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The PD, buffer, MR, completion channel and CQ the pingpongs make, released in reverse order. With an implicit MR
 * (ibv_rc_pingpong's -O) the buffer is mapped into the device's address space and the MR covers all of it.
 */
final class SessionResources implements AutoCloseable {
    final Arena arena = Arena.ofShared();
    final Pd pd;
    final MemorySegment buf;
    /** Where the buffer is mapped when an implicit MR reaches it, else null. */
    private final AddressSpace mappedIn;
    final Mr mr;
    final CompChannel channel;
    final Cq cq;
    final CompletionWaiter waiter;

    SessionResources(LocalDevice dev, long bufferBytes, int access, int cqEntries, boolean events, int timeoutMillis) {
        this(dev, bufferBytes, access, false, cqEntries, events, timeoutMillis);
    }

    /** @param implicit register one implicit MR (access must have ON_DEMAND) instead of an MR of the buffer */
    SessionResources(LocalDevice dev, long bufferBytes, int access, boolean implicit, int cqEntries, boolean events,
                     int timeoutMillis) {
        try {
            pd = dev.context().allocPd();
            buf = arena.allocate(bufferBytes, PingpongBase.PAGE_SIZE);
            buf.fill((byte) 0x7b);
            if (implicit) {
                // ibv_rc_pingpong asks the caps before it registers, with these words.
                if ((dev.context().queryDevice().odpCapabilities().general() & OdpCapabilities.SUPPORT_IMPLICIT) == 0) {
                    throw new UserError("The device doesn't support implicit ODP");
                }
                mappedIn = dev.context().addressSpace();
                mappedIn.map(buf);
                mr = pd.regMrImplicit(access);
            } else {
                mappedIn = null;
                mr = pd.regMr(buf, access);
            }
            channel = events ? dev.context().createCompChannel() : null;
            cq = dev.context().createCq(cqEntries, channel);
            // Each exchange waits for the peer's answer, as a latency test does: busy-poll like rdma-core's pingpongs.
            waiter = CompletionWaiter.forLatency(cq, channel, timeoutMillis, "the next message or its send completion");
        } catch (VerbsException e) {
            arena.close();
            throw new UserError(e.getMessage(), e);
        } catch (UserError e) {
            arena.close();
            throw e;
        }
    }

    @Override
    public void close() {
        // The QP is gone already; the memory must outlive its registration (a kernel device pins its pages).
        try {
            mr.close();
            if (mappedIn != null) {
                mappedIn.unmap(buf);
            }
        } catch (VerbsException e) {
            // the device is closed next, with everything it holds
        }
        arena.close();
    }
}
