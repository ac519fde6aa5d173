package io.jrxe.tools.soak;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.ScatterGatherList;
import io.jrxe.verbs.SendWr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * How an operation the {@link WorkloadGenerator} set up becomes verbs work requests: its opcode, keys and
 * addresses, INLINE data or a scatter/gather list of one to several pieces, and a receive of some room.
 * The pieces and the room are draws from the run's one {@link Random}, taken in the generator's order.
 */
final class WorkRequests {
    private final Random random;

    WorkRequests(Random random) {
        this.random = random;
    }

    /** The operation's send work request. */
    SendWr sendWr(Operation op) {
        Lane lane = op.lane;
        SoakNic from = lane.from;
        SoakNic to = lane.to;
        SlotArea local = lane.localArea();
        SlotArea remote = lane.remoteArea();
        SendWr wr = new SendWr(SoakNic.MAX_SGE);
        wr.wrId = op.id;
        wr.opcode = op.kind.opcode;
        wr.flags = SendWr.SIGNALED;
        wr.immData = op.imm;
        if (lane.standing != null && lane.standing.isUd()) {
            wr.ahHandle = lane.ahHandle;
            wr.remoteQpn = to.qps[lane.index].qpNum();
            wr.remoteQkey = QpPairs.QKEY;
        }
        if (op.kind.writesCell()) {
            if (op.kind.flow == OperationKind.Flow.ATOMIC) {
                MemorySegment d = MemorySegment.ofArray(op.data);
                wr.compareAdd = d.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                wr.swap = d.get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
            }
            // An ATOMIC WRITE's 8 bytes are read from this buffer; the other atomics' original value lands there.
            wr.remoteAddr = to.address(remote.cell(op.cell));
            wr.rkey = to.mr.rkey();
            wr.sgl.add(from.address(local.slot(op.localSlot)), 8, from.mr.lkey());
            return wr;
        }
        if (op.kind.flow == OperationKind.Flow.LOCAL) {
            MemoryWindows.Window w = op.window;
            if (op.kind == OperationKind.MW_BIND) {
                wr.mwRkey = w.key;
                wr.newRkey = op.windowKey;
                wr.mrLkey = from.mr.lkey();
                wr.bindAddr = from.address(w.area.base);
                wr.bindLength = w.area.end() - w.area.base;
                wr.bindAccess = MemoryWindows.bindAccess(w);
            } else {
                wr.invalidateRkey = op.windowKey;
            }
            return wr;
        }
        if (op.inline) {
            wr.flags |= SendWr.INLINE;
            wr.inlineData = op.data.clone();
            wr.inlineLength = op.length;
        } else {
            split(wr.sgl, from, local.slot(op.localSlot), op.length);
        }
        // A WRITE's target, a READ's source, a FLUSH's range.
        if (!op.kind.isSend()) {
            wr.remoteAddr = to.address(remote.slot(op.remoteSlot));
            wr.rkey = to.mr.rkey();
        }
        if (op.window != null) {
            // Through the peer's window, by its key; a SEND_WITH_INV names the key it invalidates.
            if (op.kind.isSend()) {
                wr.invalidateRkey = op.windowKey;
            } else {
                wr.remoteAddr = op.window.address(remote.slot(op.remoteSlot));
                wr.rkey = op.windowKey;
            }
        }
        return wr;
    }

    /** The receive work request a SEND or WRITE_WITH_IMM consumes at the responder. */
    RecvWr recvWr(Operation op) {
        Lane lane = op.lane;
        RecvWr r = new RecvWr(SoakNic.MAX_SGE);
        r.wrId = op.recvWrId();
        if (op.kind.isSend()) {
            SlotArea area = lane.remoteArea();
            int room = Math.min(area.slotSize, op.length + random.nextInt(SoakNic.MAX_INLINE + 1));
            split(r.sgl, lane.to, area.slot(op.remoteSlot), room);
        }
        // A WRITE_WITH_IMM's receive gets no buffer: it only carries the completion.
        return r;
    }

    /** One to MAX_SGE contiguous pieces (none for an empty buffer): the DMA walks scatter/gather lists. */
    private void split(ScatterGatherList sgl, SoakNic nic, long offset, int length) {
        if (length == 0) {
            return;
        }
        int pieces = Math.min(length, random.nextInt(3) == 0 ? 1 + random.nextInt(SoakNic.MAX_SGE) : 1);
        long at = offset;
        int left = length;
        for (int p = pieces; p > 1; p--) {
            int n = 1 + random.nextInt(left - (p - 1));
            sgl.add(nic.address(at), n, nic.mr.lkey());
            at += n;
            left -= n;
        }
        sgl.add(nic.address(at), left, nic.mr.lkey());
    }
}
