package io.jrxe.tools.compare;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

/**
 * What a comparison keeps of a completion: what libibverbs defines for it. A completion in error defines only its
 * status (and wr_id and QP, which differ by construction): its opcode and byte count are undefined (rxe leaves them
 * 0), so they are neither kept nor compared. The immediate data counts when the completion holds some (a receive
 * with WITH_IMM); a sender's completion with WITH_IMM holds none, so only its flag is kept and compared.
 */
record Completion(WcStatus status, WcOpcode opcode, int byteLen, Integer immData, boolean withImm) {
    /** A completion whose WITH_IMM flag is set exactly when it holds immediate data. */
    Completion(WcStatus status, WcOpcode opcode, int byteLen, Integer immData) {
        this(status, opcode, byteLen, immData, immData != null);
    }

    static Completion of(WorkCompletion wc) {
        if (wc.status() != WcStatus.SUCCESS) {
            return new Completion(wc.status(), null, 0, null);
        }
        return new Completion(wc.status(), wc.opcode(), wc.byteLen(), wc.carriesImmediate() ? wc.immData() : null,
                wc.hasImmediate());
    }

    /**
     * E.g. "RDMA_WRITE SUCCESS len=64", "RECV SUCCESS len=8 imm=0x00c0ffee", "SEND SUCCESS len=8 WITH_IMM" (a sender's,
     * flagged but holding no immediate data), "REM_ACCESS_ERR".
     */
    String describe() {
        if (opcode == null) {
            return status.name();
        }
        return opcode + " " + status + " len=" + byteLen + (immData != null ? String.format(" imm=0x%08x", immData)
                : withImm ? " WITH_IMM" : "");
    }
}
