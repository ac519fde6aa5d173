package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.nativ.abi.IbvQpEx;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * FLUSH and ATOMIC_WRITE on a QP made by ibv_create_qp_ex: ibv_send_wr has no fields for a
 * FLUSH's placement type and selectivity or for ATOMIC_WRITE's 8 bytes, so libibverbs carries
 * them only through the extended QP API. Each work request is one ibv_wr_start, the builder
 * (ibv_wr_flush or ibv_wr_atomic_write) with wr_id and wr_flags set on the ibv_qp_ex, and
 * ibv_wr_complete, which posts it or returns why not. Static exact-typed handles: a post
 * allocates nothing.
 */
final class ExtendedSends {
    /** IBV_FLUSH_GLOBAL, the placement jrxe's FLUSH asks for (the FETH it sends says the same). */
    private static final byte PLACEMENT_GLOBAL = 1;
    /** IBV_FLUSH_RANGE: the FLUSH covers remote_addr .. remote_addr + length. */
    private static final byte SELECTIVITY_RANGE = 0;
    private static final Linker LINKER = Linker.nativeLinker();
    /** void (*)(struct ibv_qp_ex *): wr_start. */
    private static final MethodHandle START = LINKER.downcallHandle(FunctionDescriptor.ofVoid(ADDRESS));
    /** int (*)(struct ibv_qp_ex *): wr_complete. */
    private static final MethodHandle COMPLETE = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, ADDRESS));
    /**
     * void (*)(struct ibv_qp_ex *, uint32_t rkey, uint64_t remote_addr, const void *atomic_wr):
     * wr_atomic_write. The value's pointer is passed as a 64-bit integer (the same register on
     * LP64), so that no MemorySegment is made per call.
     */
    private static final MethodHandle ATOMIC_WRITE = LINKER.downcallHandle(
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG));
    /** void (*)(struct ibv_qp_ex *, uint32_t rkey, uint64_t remote_addr, size_t len, uint8_t type, uint8_t level): wr_flush. */
    private static final MethodHandle FLUSH = LINKER.downcallHandle(
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_BYTE, JAVA_BYTE));

    private final MemorySegment qpx;
    private final MemorySegment start;
    private final MemorySegment complete;
    private final MemorySegment atomicWrite;
    private final MemorySegment flush;

    /** @param qpx what ibv_qp_to_qp_ex gave for a QP created with FLUSH and ATOMIC_WRITE in its send_ops_flags */
    ExtendedSends(MemorySegment qpx) {
        this.qpx = qpx.reinterpret(IbvQpEx.SIZE_WITH_FLUSH);
        start = this.qpx.get(ADDRESS, IbvQpEx.WR_START);
        complete = this.qpx.get(ADDRESS, IbvQpEx.WR_COMPLETE);
        atomicWrite = this.qpx.get(ADDRESS, IbvQpEx.WR_ATOMIC_WRITE);
        flush = this.qpx.get(ADDRESS, IbvQpEx.WR_FLUSH);
    }

    /** Whether this work request goes through the extended API rather than ibv_post_send. */
    static boolean carries(SendWr wr) {
        return wr.opcode == WrOpcode.FLUSH || wr.opcode == WrOpcode.ATOMIC_WRITE;
    }

    /** Posts one FLUSH or ATOMIC_WRITE; {@code index} is its place in the chain, for the error. */
    void post(SendWr wr, int index, String what) throws VerbsException {
        if (wr.opcode == WrOpcode.ATOMIC_WRITE && (wr.sgl.count() != 1 || wr.sgl.length(0) != 8)) {
            throw new VerbsException(Errno.EINVAL, "work request " + index + " of the chain: ATOMIC_WRITE takes its value "
                    + "from one 8-byte SGE, not " + wr.sgl.count() + " SGEs of " + wr.sgl.totalLength() + " bytes");
        }
        int rc;
        try {
            START.invokeExact(start, qpx);
            qpx.set(JAVA_LONG, IbvQpEx.WR_ID, wr.wrId);
            qpx.set(JAVA_INT, IbvQpEx.WR_FLAGS, wr.flags);
            if (wr.opcode == WrOpcode.ATOMIC_WRITE) {
                ATOMIC_WRITE.invokeExact(atomicWrite, qpx, wr.rkey, wr.remoteAddr, wr.sgl.addr(0));
            } else {
                FLUSH.invokeExact(flush, qpx, wr.rkey, wr.remoteAddr, wr.sgl.totalLength(), PLACEMENT_GLOBAL, SELECTIVITY_RANGE);
            }
            rc = (int) COMPLETE.invokeExact(complete, qpx);
        } catch (Throwable t) {
            throw CapturedErrno.unexpected(t);
        }
        if (rc != 0) {
            throw NativeVerbsException.posting(index, what, rc);
        }
    }
}
