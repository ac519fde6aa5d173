package io.jrxe.tools.soak;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * A NIC's shared receive queue ({@code --with srq}): every RC QP of the NIC takes its receives from it, and the
 * soak keeps it filled.
 *
 * <p>Which receive a message lands in is the SRQ's choice, not the soak's: the receives belong to no operation.
 * Each has a slot of its own as its buffer, and is posted again as soon as its completion is checked. There are
 * enough of them for a full window of every RC lane into the NIC, so no message ever finds the SRQ empty (an RNR
 * NAK is not what this soak is about). A receive completion names its QP, and RC delivers a QP's messages in
 * order: the completion belongs to the oldest operation of that lane still waiting for a receive. Its opcode,
 * byte_len and immediate are checked as on a QP's own receive queue, and its buffer in full: the message, then
 * the slot as it was before.
 *
 * <p>When a QP pair fails, its QPs' receives are not flushed: they are the SRQ's. A receive the failed QP was
 * filling may complete with an error (its slot then holds any part of the message, is never checked, and is not
 * posted again: the failed lane needs no receives any more). The operations of the pair still waiting for a
 * receive are expected failures once no completion can be on its way any more (a quarantine after,
 * {@link SoakConfig#quarantineNanos}).
 */
final class SrqReceives {
    /** Set in an SRQ receive's wr_id (an operation's receive has bit 40, a UC or UD standing one bit 41). */
    private static final long TAG = 1L << 42;

    private final SoakNic nic;
    private final Srq srq;
    private final SlotArea area;
    /** The receives posted and not completed: wr_id to slot. */
    private final Map<Long, Integer> posted = new HashMap<>();
    private final BitSet completed = new BitSet();
    private long next;
    /** For the report: messages received through the SRQ. */
    private long received;

    /** Posts a receive on every slot of {@code area} (the NIC's SRQ area), on the NIC's SRQ. */
    SrqReceives(SoakNic nic, Srq srq, SlotArea area) throws VerbsException {
        this.nic = nic;
        this.srq = srq;
        this.area = area;
        for (int slot = 0; slot < area.slots; slot++) {
            post(slot);
        }
    }

    static boolean isShared(long wrId) {
        return (wrId & TAG) != 0;
    }

    private void post(int slot) throws VerbsException {
        nic.fill(area.slot(slot), area.slotSize, SoakNic.POISON);
        RecvWr r = new RecvWr(1);
        r.wrId = TAG | next++;
        r.sgl.add(nic.address(area.slot(slot)), area.slotSize, nic.mr.lkey());
        posted.put(r.wrId, slot);
        srq.postRecv(r);
    }

    /**
     * The slot of the SRQ receive this completion is of, taken from those posted; -1 (said to the report) when
     * none is: a second completion of it, or one of no receive the soak posted.
     */
    int take(WorkCompletion wc, SoakReport report) {
        Integer slot = posted.remove(wc.wrId());
        long n = wc.wrId() & ~TAG;
        if (slot == null) {
            if (n <= Integer.MAX_VALUE && completed.get((int) n)) {
                report.duplicated("a second completion of the same SRQ receive, on " + nic + ": " + wc);
            } else {
                report.stray("an SRQ receive completion no posted receive was waiting for, on " + nic + ": " + wc);
            }
            return -1;
        }
        completed.set((int) n);
        return slot;
    }

    /**
     * The receive of {@code op}'s message completed in {@code slot}: a SEND's bytes are checked (the whole slot:
     * the message, then what it held before); the receive is posted again. False when a byte differs. A receive
     * that completed with an error is not checked and not posted again.
     */
    boolean received(Operation op, int slot, WcStatus status, MemoryChecker memory) throws VerbsException {
        if (status != WcStatus.SUCCESS) {
            area.indeterminateSlots.set(slot);
            return true;
        }
        received++;
        boolean good = true;
        if (op.kind.isSend()) {
            long at = area.slot(slot);
            memory.maybeTamper(op, at);
            MemorySegment.copy(op.data, 0, nic.shadow, ValueLayout.JAVA_BYTE, at, op.length);
            good = memory.compare(op, nic, at, area.slotSize, "the SRQ receive's buffer");
        }
        post(slot);
        return good;
    }

    /** What the SRQs did, in one line, or null without any. */
    static String summary(SoakNic a, SoakNic b) {
        if (a.srqReceives == null) {
            return null;
        }
        return "SRQ: " + (a.srqReceives.received + b.srqReceives.received) + " messages received through the two NICs' "
                + "shared receive queues, " + a.srqReceives.area.slots + " receives each, kept posted";
    }
}
