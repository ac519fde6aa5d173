package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.ScatterGatherList;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.nativ.abi.IbvSendWr;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * jrxe's SendWr as libibverbs' ibv_send_wr, written into memory the QP allocated once: the WR,
 * its SGE array and, for INLINE, a buffer the inline bytes are copied to (libibverbs takes inline
 * data from the SGEs and copies it at post time). Nothing is allocated. The {@code next} pointer
 * is the caller's: it chains the WRs it posts together.
 */
public final class SendWrEncoder {
    /** Why a FLUSH reached ibv_post_send: only a QP with the extended API posts one (ExtendedSends). */
    public static final String NO_FLUSH = "FLUSH goes through libibverbs' extended QP API (ibv_wr_flush), which this QP lacks: "
            + "its provider refused ibv_create_qp_ex with FLUSH (rxe has it from Linux 6.2 with rdma-core 45)";

    private SendWrEncoder() {
    }

    /**
     * Writes {@code wr} into {@code out}.
     *
     * @param sges   room for the QP's max_send_sge ibv_sge entries
     * @param inline room for the QP's max_inline_data bytes
     * @param ud     whether the QP is UD (the WR then names an AH, a QPN and a Q_Key)
     * @return null, or why libibverbs cannot express this work request
     */
    public static String encode(SendWr wr, MemorySegment out, MemorySegment sges, MemorySegment inline, boolean ud,
                                Handles handles) {
        int opcode = opcodeOf(wr.opcode);
        if (opcode < 0) {
            return wr.opcode == WrOpcode.FLUSH ? NO_FLUSH : wr.opcode + " has no ibv_wr_opcode in libibverbs' ibv_send_wr (it is jrxe's own)";
        }
        out.fill((byte) 0);
        out.set(JAVA_LONG, IbvSendWr.WR_ID, wr.wrId);
        out.set(JAVA_INT, IbvSendWr.OPCODE, opcode);
        out.set(JAVA_INT, IbvSendWr.SEND_FLAGS, wr.flags);
        String sgl = (wr.flags & SendWr.INLINE) != 0 ? inlineSge(wr, out, sges, inline) : sgl(wr.sgl, out, sges);
        if (sgl != null) {
            return sgl;
        }
        switch (wr.opcode) {
            case RDMA_WRITE_WITH_IMM, SEND_WITH_IMM -> out.set(NativeOrder.BE32, IbvSendWr.IMM_DATA, wr.immData);
            case SEND_WITH_INV, LOCAL_INV -> out.set(JAVA_INT, IbvSendWr.INVALIDATE_RKEY, wr.invalidateRkey);
            default -> {
            }
        }
        switch (wr.opcode) {
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ, ATOMIC_WRITE -> {
                out.set(JAVA_LONG, IbvSendWr.WR_RDMA_REMOTE_ADDR, wr.remoteAddr);
                out.set(JAVA_INT, IbvSendWr.WR_RDMA_RKEY, wr.rkey);
            }
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                out.set(JAVA_LONG, IbvSendWr.WR_ATOMIC_REMOTE_ADDR, wr.remoteAddr);
                out.set(JAVA_LONG, IbvSendWr.WR_ATOMIC_COMPARE_ADD, wr.compareAdd);
                out.set(JAVA_LONG, IbvSendWr.WR_ATOMIC_SWAP, wr.swap);
                out.set(JAVA_INT, IbvSendWr.WR_ATOMIC_RKEY, wr.rkey);
            }
            case BIND_MW -> {
                return bind(wr, out, handles);
            }
            case SEND, SEND_WITH_IMM -> {
                if (ud) {
                    return udDestination(wr, out, handles);
                }
            }
            default -> {
            }
        }
        return null;
    }

    /** The ibv_wr_opcode value, or -1 when ibv_post_send cannot post it (FLUSH: the extended API only; REG_MR: jrxe's own). */
    public static int opcodeOf(WrOpcode op) {
        return switch (op) {
            case FLUSH, REG_MR -> -1;
            default -> op.verbsValue();
        };
    }

    private static String sgl(ScatterGatherList sgl, MemorySegment out, MemorySegment sges) {
        int n = sgl.count();
        if (n > SgeArray.capacity(sges)) {
            return n + " SGEs exceed the QP's max_send_sge " + SgeArray.capacity(sges);
        }
        SgeArray.write(sgl, sges);
        out.set(ADDRESS, IbvSendWr.SG_LIST, n == 0 ? MemorySegment.NULL : sges);
        out.set(JAVA_INT, IbvSendWr.NUM_SGE, n);
        return null;
    }

    private static String inlineSge(SendWr wr, MemorySegment out, MemorySegment sges, MemorySegment inline) {
        int n = wr.inlineLength;
        if (n < 0 || wr.inlineData == null || wr.inlineData.length < n) {
            return "inline length " + n + " but the inline array holds "
                    + (wr.inlineData == null ? "nothing" : wr.inlineData.length + " bytes");
        }
        if (n > inline.byteSize()) {
            return "inline data of " + n + " bytes exceeds the QP's max_inline_data " + inline.byteSize();
        }
        MemorySegment.copy(wr.inlineData, 0, inline, JAVA_BYTE, 0, n);
        SgeArray.set(sges, 0, inline.address(), n, 0);
        out.set(ADDRESS, IbvSendWr.SG_LIST, sges);
        out.set(JAVA_INT, IbvSendWr.NUM_SGE, n == 0 ? 0 : 1);
        return null;
    }

    private static String bind(SendWr wr, MemorySegment out, Handles handles) {
        MemorySegment mw = handles.mw(wr.mwRkey);
        if (mw.equals(MemorySegment.NULL)) {
            return String.format("BIND_MW names window R_Key 0x%08x, which this context did not allocate", wr.mwRkey);
        }
        MemorySegment mr = MemorySegment.NULL;
        if (wr.bindLength != 0) {
            mr = handles.mr(wr.mrLkey);
            if (mr.equals(MemorySegment.NULL)) {
                return String.format("BIND_MW names MR L_Key 0x%08x, which this context did not register", wr.mrLkey);
            }
        }
        out.set(ADDRESS, IbvSendWr.BIND_MW_MW, mw);
        out.set(JAVA_INT, IbvSendWr.BIND_MW_RKEY, wr.newRkey);
        out.set(ADDRESS, IbvSendWr.BIND_MW_BIND_INFO_MR, mr);
        out.set(JAVA_LONG, IbvSendWr.BIND_MW_BIND_INFO_ADDR, wr.bindAddr);
        out.set(JAVA_LONG, IbvSendWr.BIND_MW_BIND_INFO_LENGTH, wr.bindLength);
        out.set(JAVA_INT, IbvSendWr.BIND_MW_BIND_INFO_MW_ACCESS_FLAGS, wr.bindAccess);
        return null;
    }

    private static String udDestination(SendWr wr, MemorySegment out, Handles handles) {
        MemorySegment ah = handles.ah(wr.ahHandle);
        if (ah.equals(MemorySegment.NULL)) {
            return "UD send names AH handle " + wr.ahHandle + ", which this context did not create";
        }
        out.set(ADDRESS, IbvSendWr.WR_UD_AH, ah);
        out.set(JAVA_INT, IbvSendWr.WR_UD_REMOTE_QPN, wr.remoteQpn);
        out.set(JAVA_INT, IbvSendWr.WR_UD_REMOTE_QKEY, wr.remoteQkey);
        return null;
    }
}
