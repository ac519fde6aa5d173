package io.jrxe.verbs.nativ;

import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.nativ.abi.IbvAsyncEvent;
import io.jrxe.verbs.nativ.abi.IbvCq;
import io.jrxe.verbs.nativ.abi.IbvQp;
import io.jrxe.verbs.nativ.abi.IbvSrq;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A context's async events: ibv_get_async_event once the async fd is readable, translated to
 * jrxe's AsyncEvent (a QP by its number, a CQ or SRQ by its handle, a port by its number) and
 * acknowledged at once, so that destroying the object never waits for an ack.
 */
final class AsyncEvents {
    private final NativeContext context;
    private final int fd;

    AsyncEvents(NativeContext context, int fd) {
        this.context = context;
        this.fd = fd;
    }

    /** The next event within the timeout, or null. */
    AsyncEvent await(long timeoutMillis) throws NativeVerbsException, InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (FdWait.readable(fd, Math.max(0, (deadline - System.nanoTime()) / 1_000_000L))) {
            AsyncEvent e = read();
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /** An event already waiting, or null. */
    AsyncEvent next(long timeoutMillis) throws NativeVerbsException {
        try {
            return await(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private AsyncEvent read() throws NativeVerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment event = arena.allocate(IbvAsyncEvent.LAYOUT);
            context.lib.check("ibv_get_async_event", context.ctx, event);
            try {
                return translate(event);
            } finally {
                context.lib.call("ibv_ack_async_event", event);
            }
        }
    }

    /** Null for a work-queue event (jrxe makes no WQs, so none should come). */
    private AsyncEvent translate(MemorySegment event) {
        int type = event.get(JAVA_INT, IbvAsyncEvent.EVENT_TYPE);
        AsyncEventType[] types = AsyncEventType.values();
        if (type < 0 || type >= types.length) {
            return null;
        }
        AsyncEventType t = types[type];
        String reason = "reported by the kernel device " + context.name();
        int element = switch (t) {
            case CQ_ERR -> handle(event, IbvAsyncEvent.ELEMENT_CQ, IbvCq.SIZE, IbvCq.HANDLE);
            case SRQ_ERR, SRQ_LIMIT_REACHED -> handle(event, IbvAsyncEvent.ELEMENT_SRQ, IbvSrq.SIZE, IbvSrq.HANDLE);
            case PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER, GID_CHANGE ->
                    event.get(JAVA_INT, IbvAsyncEvent.ELEMENT_PORT_NUM);
            case DEVICE_FATAL -> 0;
            default -> handle(event, IbvAsyncEvent.ELEMENT_QP, IbvQp.SIZE, IbvQp.QP_NUM);
        };
        return new AsyncEvent(t, element, reason);
    }

    private static int handle(MemorySegment event, long pointerAt, long size, long fieldAt) {
        return event.get(ADDRESS, pointerAt).reinterpret(size).get(JAVA_INT, fieldAt);
    }
}
