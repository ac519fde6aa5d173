package io.jrxe.rnic.queue;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

/** Pushing and polling completions in the queue tests. */
final class Completions {
    private Completions() {
    }

    /** A successful send completion whose fields are all derived from its wr_id, so a torn entry shows. */
    static boolean push(CompletionQueue cq, long wrId) {
        return push(cq, wrId, WcStatus.SUCCESS, false);
    }

    static boolean push(CompletionQueue cq, long wrId, WcStatus status, boolean solicited) {
        return cq.push(wrId, status, WcOpcode.SEND, (int) wrId & 0xFF, (int) (wrId * 3), (int) ~wrId,
                (int) wrId & 0xFFFFFF, (int) (wrId >>> 8) & 0xFFFFFF, WorkCompletion.WITH_IMM, 0, solicited);
    }

    /** True when every field is the one {@link #push(CompletionQueue, long)} wrote for this wr_id. */
    static boolean intact(WorkCompletion wc, long wrId) {
        return wc.wrId() == wrId && wc.status() == WcStatus.SUCCESS && wc.opcode() == WcOpcode.SEND
                && wc.vendorErr() == ((int) wrId & 0xFF) && wc.byteLen() == (int) (wrId * 3)
                && wc.immData() == (int) ~wrId && wc.qpNum() == ((int) wrId & 0xFFFFFF)
                && wc.srcQp() == ((int) (wrId >>> 8) & 0xFFFFFF) && wc.wcFlags() == WorkCompletion.WITH_IMM
                && wc.pkeyIndex() == 0;
    }

    static WorkCompletion[] batch(int n) {
        WorkCompletion[] out = new WorkCompletion[n];
        for (int i = 0; i < n; i++) {
            out[i] = new WorkCompletion();
        }
        return out;
    }
}
