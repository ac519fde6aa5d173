package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.nativ.abi.IbvRecvWr;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** jrxe's RecvWr as libibverbs' ibv_recv_wr with its SGE array, in memory allocated once; {@code next} is the caller's. */
public final class RecvWrEncoder {
    private RecvWrEncoder() {
    }

    /** @return null, or why the work request does not fit */
    public static String encode(RecvWr wr, MemorySegment out, MemorySegment sges) {
        int n = wr.sgl.count();
        if (n > SgeArray.capacity(sges)) {
            return n + " SGEs exceed the queue's max_recv_sge " + SgeArray.capacity(sges);
        }
        out.set(JAVA_LONG, IbvRecvWr.WR_ID, wr.wrId);
        out.set(ADDRESS, IbvRecvWr.NEXT, MemorySegment.NULL);
        SgeArray.write(wr.sgl, sges);
        out.set(ADDRESS, IbvRecvWr.SG_LIST, n == 0 ? MemorySegment.NULL : sges);
        out.set(JAVA_INT, IbvRecvWr.NUM_SGE, n);
        return null;
    }
}
