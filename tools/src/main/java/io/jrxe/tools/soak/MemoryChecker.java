package io.jrxe.tools.soak;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

/**
 * Compares the NICs' memory with the {@link SoakModel}: a finished operation's slots (the whole slot, so bytes
 * written past a message's end count too) and its atomic cell, and after the run a NIC's whole memory.
 *
 * <p>An operation that failed with its QP pair (an expected failure) may have written its result in part, or
 * not at all: the slot its result was going to (and an atomic's cell) becomes indeterminate and is never
 * compared again. Everything else is: the buffers the NIC only read, and every other slot of the pair.
 */
final class MemoryChecker {
    private final SoakModel model;
    private final SoakReport report;
    private final Random random;
    private long tamperFrom;
    /** The checker's own test: which operations' results may be tampered with. */
    private Predicate<Operation> tamperOnly = op -> true;

    /** {@code random} is the run's: only {@code tamperFrom} (the checker's own test; -1 for none) draws from it. */
    MemoryChecker(SoakModel model, SoakReport report, Random random, long tamperFrom) {
        this.model = model;
        this.report = report;
        this.random = random;
        this.tamperFrom = tamperFrom;
    }

    /**
     * The operation has all its completions: its result goes into the model (or its target becomes
     * indeterminate), its buffers are compared, and the slots that are still known go back to the free ones.
     * False when a byte differs.
     */
    boolean finished(Operation op) {
        Lane lane = op.lane;
        SlotArea local = lane.localArea();
        SlotArea remote = lane.remoteArea();
        // A receive that completed says the whole message is in place, even if the send's ACK never came back.
        boolean resultKnown = !op.expectedFailure || op.recvSucceeded;
        if (resultKnown) {
            long resultAt = model.applyResult(op);
            if (!op.expectedFailure) {
                maybeTamper(op, resultAt);
            }
        } else {
            if (op.kind.resultAtRequester()) {
                local.indeterminateSlots.set(op.localSlot);
            }
            if (op.kind.writesResponderSlot() && op.remoteSlot >= 0) {
                remote.indeterminateSlots.set(op.remoteSlot);
            }
            if (op.kind.writesCell()) {
                remote.indeterminateCells.set(op.cell);
            }
        }
        boolean good = true;
        if (op.localSlot >= 0 && !local.indeterminateSlots.get(op.localSlot)) {
            good = compare(op, lane.from, local.slot(op.localSlot), local.slotSize, "the requester's buffer");
            local.free.add(op.localSlot);
        }
        if (op.remoteSlot >= 0 && !remote.indeterminateSlots.get(op.remoteSlot)) {
            good &= compare(op, lane.to, remote.slot(op.remoteSlot), remote.slotSize, "the responder's buffer");
            remote.free.add(op.remoteSlot);
        }
        if (op.cell >= 0 && --lane.cellOutstanding[op.cell] == 0 && !remote.indeterminateCells.get(op.cell)) {
            good &= compare(op, lane.to, remote.cell(op.cell), 8, "the atomic's target");
        }
        return good;
    }

    /**
     * A UC operation after its quarantine ({@link StandingReceives}): its own buffer unchanged; a SEND delivered or
     * lost (an expected failure); a WRITE's target holding the whole message, or whole packets from its start
     * and after them what it held before (lost on the way: an expected failure), and nothing else.
     */
    boolean finishedUnreliable(Operation op) {
        Lane lane = op.lane;
        SlotArea local = lane.localArea();
        boolean good = compare(op, lane.from, local.slot(op.localSlot), local.slotSize, "the requester's buffer");
        local.free.add(op.localSlot);
        if (op.remoteSlot < 0) {
            op.expectedFailure = !op.recvSucceeded;
            return good;
        }
        SlotArea remote = lane.remoteArea();
        long at = remote.slot(op.remoteSlot);
        maybeTamper(op, at);
        int arrived = arrivedPrefix(op, at, remote.slotSize);
        if (arrived == op.length) {
            model.applyResult(op);
            op.expectedFailure = op.kind.consumesReceive() && !op.recvSucceeded;
        } else if (arrived >= 0 && !op.recvSucceeded) {
            MemorySegment.copy(op.data, 0, lane.to.shadow, ValueLayout.JAVA_BYTE, at, arrived);
            op.expectedFailure = true;
        } else {
            model.applyResult(op);
            good &= compare(op, lane.to, at, remote.slotSize, arrived < 0 ? "the UC WRITE's target"
                    : "the UC WRITE's target, whose receive completed");
        }
        remote.free.add(op.remoteSlot);
        return good;
    }

    /**
     * How many bytes of a UC WRITE's message its target holds: whole packets from the start (or all of it), after
     * which the slot is as the model had it before; -1 when it holds anything else.
     */
    private static int arrivedPrefix(Operation op, long at, int slotSize) {
        SoakNic nic = op.lane.to;
        long same = MemorySegment.mismatch(nic.memory, at, at + op.length, MemorySegment.ofArray(op.data), 0, op.length);
        int packets = same < 0 ? op.length : (int) (same - same % op.lane.mtu);
        return mismatch(nic, at + packets, slotSize - packets) < 0 ? packets : -1;
    }

    /** For the checker's own test of one kind of operation: only those {@code which} accepts are tampered with. */
    void tamperOnly(Predicate<Operation> which) {
        tamperOnly = which;
    }

    /**
     * The checker's own test: one bit of the first result at or after {@code tamperFrom} (at {@code resultAt} in
     * {@link SoakModel#resultNic}'s memory) flipped just before it is checked, as a NIC bug would.
     */
    void maybeTamper(Operation op, long resultAt) {
        if (tamperFrom >= 0 && op.id >= tamperFrom && op.length > 0 && resultAt >= 0
                && tamperOnly.test(op)) {
            tamperFrom = -1;
            SoakNic resultNic = SoakModel.resultNic(op);
            long at = resultAt + random.nextInt(op.length);
            byte v = resultNic.memory.get(ValueLayout.JAVA_BYTE, at);
            resultNic.memory.set(ValueLayout.JAVA_BYTE, at, (byte) (v ^ 1 << random.nextInt(8)));
        }
    }

    /** Memory against the model; a difference is reported once, then the model takes what memory holds. */
    boolean compare(Operation op, SoakNic nic, long offset, long length, String what) {
        long at = mismatch(nic, offset, length);
        if (at < 0) {
            return true;
        }
        report.detail("op " + op + ": byte " + at + " of " + what + " on " + nic + " is " + bytes(nic, offset + at));
        MemorySegment.copy(nic.memory, offset, nic.shadow, offset, length);
        return false;
    }

    /**
     * The whole memory of a NIC against the model, slot by slot, cell by cell: all but the slots of operations
     * still outstanding, the cells atomics are still due on, and what failed operations left indeterminate.
     */
    void sweep(SoakNic nic) {
        List<long[]> busy = new ArrayList<>();
        for (Operation op : model.unfinished()) {
            Lane lane = op.lane;
            busy.add(new long[] {lane.from == nic ? lane.index : -1, op.localSlot,
                                 lane.to == nic ? lane.index : -1, op.remoteSlot});
        }
        for (int i = 0; i < nic.areas.length; i++) {
            SlotArea area = nic.areas[i];
            for (int s = 0; s < area.slots; s++) {
                if (!isBusy(busy, i, s) && !area.indeterminateSlots.get(s)) {
                    sweepRange(nic, area.slot(s), area.slotSize, "slot " + s + " of QP pair " + i);
                }
            }
            Lane incoming = model.incoming(nic, i);
            for (int c = 0; c < SlotArea.CELLS; c++) {
                if (incoming != null && incoming.cellOutstanding[c] == 0 && !area.indeterminateCells.get(c)) {
                    sweepRange(nic, area.cell(c), 8, "atomic cell " + c + " of QP pair " + i);
                }
            }
        }
    }

    private static boolean isBusy(List<long[]> busy, int index, int slot) {
        for (long[] b : busy) {
            if (b[0] == index && b[1] == slot || b[2] == index && b[3] == slot) {
                return true;
            }
        }
        return false;
    }

    private void sweepRange(SoakNic nic, long offset, long length, String what) {
        long at = mismatch(nic, offset, length);
        if (at >= 0) {
            report.sweepMismatch("after the run, byte " + at + " of " + what + " on " + nic + " is " + bytes(nic, offset + at));
            MemorySegment.copy(nic.memory, offset, nic.shadow, offset, length);
        }
    }

    /** Where memory and model first differ in the range, relative to its start, or -1. */
    private static long mismatch(SoakNic nic, long offset, long length) {
        return MemorySegment.mismatch(nic.memory, offset, offset + length, nic.shadow, offset, offset + length);
    }

    /** "0x.., expected 0x..": the byte at {@code at} in memory and in the model. */
    private static String bytes(SoakNic nic, long at) {
        return String.format("0x%02x, expected 0x%02x", nic.memory.get(ValueLayout.JAVA_BYTE, at) & 0xFF,
                nic.shadow.get(ValueLayout.JAVA_BYTE, at) & 0xFF);
    }
}
