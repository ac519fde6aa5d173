package io.jrxe.tools.sizing;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.wire.quantity.ByteSize.count;
import static io.jrxe.wire.quantity.ByteSize.full;
import static io.jrxe.wire.quantity.ByteSize.unit;

/**
 * The memory of a QP's send and receive queues and of its completion queue: entries times entry
 * size, each with its arithmetic. The CQ gets one entry per work request unless told otherwise,
 * since every signalled WR completes into it.
 *
 * @param cqEntries the CQ's entries, or -1 for one per work request
 */
public record QueueSizing(long sendWrs, long recvWrs, long sendWqeBytes, long recvWqeBytes, long cqeBytes, long cqEntries) {

    public long sendQueueBytes() {
        return Math.multiplyExact(sendWrs, sendWqeBytes);
    }

    public long recvQueueBytes() {
        return Math.multiplyExact(recvWrs, recvWqeBytes);
    }

    public long completionEntries() {
        return cqEntries >= 0 ? cqEntries : Math.addExact(sendWrs, recvWrs);
    }

    public long cqBytes() {
        return Math.multiplyExact(completionEntries(), cqeBytes);
    }

    public long totalBytes() {
        return Math.addExact(Math.addExact(sendQueueBytes(), recvQueueBytes()), cqBytes());
    }

    /** The results with their arithmetic, one line each. */
    public List<String> explain() {
        List<String> lines = new ArrayList<>();
        lines.add("Queues: " + count(sendWrs) + " send WRs, " + count(recvWrs) + " receive WRs");
        lines.add("  send queue    = " + count(sendWrs) + " WQEs x " + unit(sendWqeBytes) + " = " + full(sendQueueBytes()));
        lines.add("  receive queue = " + count(recvWrs) + " WQEs x " + unit(recvWqeBytes) + " = " + full(recvQueueBytes()));
        String entries = cqEntries >= 0 ? count(cqEntries) + " CQEs"
                : "(" + count(sendWrs) + " + " + count(recvWrs) + ") CQEs";
        lines.add("  CQ            = " + entries + " x " + unit(cqeBytes) + " = " + full(cqBytes())
                + (cqEntries >= 0 ? "" : "   (one CQE per WR; --cq-entries to choose)"));
        lines.add("  total         = " + full(totalBytes()));
        return lines;
    }
}
