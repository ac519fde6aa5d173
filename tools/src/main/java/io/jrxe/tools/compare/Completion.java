package io.jrxe.tools.compare;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

/**
 * What a comparison keeps of a completion: what libibverbs defines for it. A completion in error defines only its
 * status (and wr_id and QP, which differ by construction): its opcode and byte count are undefined (rxe leaves them
 * 0), so they are neither kept nor compared. The immediate data counts when the completion says it carries some.
 */
record Completion(WcStatus status, WcOpcode opcode, int byteLen, Integer immData) {
    static Completion of(WorkCompletion wc) {
        if (wc.status() != WcStatus.SUCCESS) {
            return new Completion(wc.status(), null, 0, null);
        }
        return new Completion(wc.status(), wc.opcode(), wc.byteLen(), wc.hasImmediate() ? wc.immData() : null);
    }

    /** E.g. "RDMA_WRITE SUCCESS len=64", "RECV SUCCESS len=8 imm=0x00c0ffee", "REM_ACCESS_ERR". */
    String describe() {
        if (opcode == null) {
            return status.name();
        }
        return opcode + " " + status + " len=" + byteLen + (immData == null ? "" : String.format(" imm=0x%08x", immData));
    }
}
