package io.jrxe.verbs.nativ;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The data-path verbs that verbs.h defines inline, called as it does: through the function
 * pointers of the provider's ops table (qp->context->ops.post_send, cq->context->ops.poll_cq).
 * Exact-typed static handles, so a call allocates nothing. They return the provider's status
 * (0 or an errno value; poll_cq a count or a negative error) and set no errno to read.
 */
final class DataPathCalls {
    private static final Linker LINKER = Linker.nativeLinker();
    /** int (*)(void *queue, void *wr, void **bad_wr): post_send, post_recv, post_srq_recv. */
    private static final MethodHandle POST = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    /** int (*)(struct ibv_cq *, int, struct ibv_wc *): poll_cq. */
    private static final MethodHandle POLL_CQ = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    /** int (*)(struct ibv_cq *, int): req_notify_cq. */
    private static final MethodHandle REQ_NOTIFY = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));

    private DataPathCalls() {
    }

    static int post(MemorySegment function, MemorySegment queue, MemorySegment firstWr, MemorySegment badWr) {
        try {
            return (int) POST.invokeExact(function, queue, firstWr, badWr);
        } catch (Throwable t) {
            throw CapturedErrno.unexpected(t);
        }
    }

    static int pollCq(MemorySegment function, MemorySegment cq, int entries, MemorySegment wcs) {
        try {
            return (int) POLL_CQ.invokeExact(function, cq, entries, wcs);
        } catch (Throwable t) {
            throw CapturedErrno.unexpected(t);
        }
    }

    static int requestNotify(MemorySegment function, MemorySegment cq, int solicitedOnly) {
        try {
            return (int) REQ_NOTIFY.invokeExact(function, cq, solicitedOnly);
        } catch (Throwable t) {
            throw CapturedErrno.unexpected(t);
        }
    }
}
