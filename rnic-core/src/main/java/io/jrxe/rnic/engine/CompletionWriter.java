package io.jrxe.rnic.engine;

import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;

/**
 * Writes completions into CQs for the engines (the completer's send completions, the responder's
 * receive completions), tracing each, and handles a full CQ as real devices do: the CQ error
 * event, and every QP that completes into it goes to the error state.
 */
final class CompletionWriter {
    private final NicResources resources;
    private final Tracer tracer;
    private final QpControl control;

    CompletionWriter(NicResources resources, Tracer tracer, QpControl control) {
        this.resources = resources;
        this.tracer = tracer;
        this.control = control;
    }

    void complete(CompletionQueue cq, long wrId, WcStatus status, WcOpcode opcode, int vendorErr, long byteLen, int imm,
                  int qpn, int srcQp, int flags, boolean solicited) {
        int index = tracer.tracing() ? cq.nextIndex() : -1;
        boolean inError = cq.overflowed();
        boolean written = cq.push(wrId, status, opcode, vendorErr, (int) byteLen, imm, qpn, srcQp, flags, 0, solicited);
        // Only the overflow itself takes the CQ's QPs to ERR: each of them then flushes its work into the full CQ,
        // and if every lost flush completion did it again, a thousand QPs with 512 receives each would queue
        // flushes without end (the NIC thread ran out of heap that way).
        if (!written && !inError) {
            resources.cqOverflowed(cq, control::flushLater);
        }
        tracer.trace(TraceEvent.COMPLETED, qpn, wrId, -1, opcode.ordinal(), status.ordinal());
        tracer.trace(TraceEvent.CQE_WRITTEN, qpn, wrId, -1, -1, written ? index : -1);
    }
}
