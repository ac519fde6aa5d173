package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.nativ.abi.IbvWc;
import io.jrxe.verbs.spi.WorkCompletionFiller;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/** libibverbs' ibv_wc into jrxe's reusable WorkCompletion: no allocation. */
public final class WcDecoder {
    /** ibv_wc_opcode values to jrxe's, by value (0..9 and 128..129; the rest have none). */
    private static final WcOpcode[] OPCODES = new WcOpcode[130];

    static {
        for (WcOpcode op : WcOpcode.values()) {
            if (op != WcOpcode.REG_MR) { // jrxe's own: libibverbs gives 10 no meaning
                OPCODES[op.verbsValue()] = op;
            }
        }
    }

    private WcDecoder() {
    }

    /** Fills {@code out} from the ibv_wc at {@code wc}. */
    public static void decode(MemorySegment wc, WorkCompletion out) {
        WcStatus status = WcStatus.of(wc.get(JAVA_INT, IbvWc.STATUS));
        int flags = wc.get(JAVA_INT, IbvWc.WC_FLAGS);
        // imm_data is __be32 (jrxe's int is the wire value); invalidated_rkey is a host-order key.
        int imm = (flags & WorkCompletion.WITH_IMM) != 0 ? wc.get(NativeOrder.BE32, IbvWc.IMM_DATA)
                : wc.get(JAVA_INT, IbvWc.INVALIDATED_RKEY);
        WorkCompletionFiller.fill(out, wc.get(JAVA_LONG, IbvWc.WR_ID), status, opcode(wc.get(JAVA_INT, IbvWc.OPCODE), status),
                wc.get(JAVA_INT, IbvWc.VENDOR_ERR), wc.get(JAVA_INT, IbvWc.BYTE_LEN), imm,
                wc.get(JAVA_INT, IbvWc.QP_NUM), wc.get(JAVA_INT, IbvWc.SRC_QP), flags,
                wc.get(JAVA_SHORT, IbvWc.PKEY_INDEX) & 0xFFFF);
    }

    /**
     * jrxe's opcode for an ibv_wc_opcode. libibverbs defines the opcode of successful
     * completions only, so a failed one with an opcode jrxe has no name for reads as SEND; a
     * successful one cannot have one, since jrxe posts no TSO and no tag-matching work.
     */
    public static WcOpcode opcode(int value, WcStatus status) {
        WcOpcode op = value >= 0 && value < OPCODES.length ? OPCODES[value] : null;
        if (op != null) {
            return op;
        }
        if (status != WcStatus.SUCCESS) {
            return WcOpcode.SEND;
        }
        throw new IllegalStateException("a successful completion with ibv_wc_opcode " + value + ", which jrxe has no name for");
    }
}
