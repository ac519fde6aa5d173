package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.ScatterGatherList;
import io.jrxe.verbs.nativ.abi.IbvSge;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** A jrxe scatter/gather list as an ibv_sge array (send and receive work requests alike). */
final class SgeArray {
    private SgeArray() {
    }

    /** How many ibv_sge entries {@code sges} has room for. */
    static long capacity(MemorySegment sges) {
        return sges.byteSize() / IbvSge.SIZE;
    }

    /** Writes the list's entries; the caller has checked that they fit. */
    static void write(ScatterGatherList sgl, MemorySegment sges) {
        for (int i = 0; i < sgl.count(); i++) {
            set(sges, i, sgl.addr(i), (int) sgl.length(i), sgl.lkey(i));
        }
    }

    static void set(MemorySegment sges, int index, long addr, int length, int lkey) {
        long at = index * IbvSge.SIZE;
        sges.set(JAVA_LONG, at + IbvSge.ADDR, addr);
        sges.set(JAVA_INT, at + IbvSge.LENGTH, length);
        sges.set(JAVA_INT, at + IbvSge.LKEY, lkey);
    }
}
