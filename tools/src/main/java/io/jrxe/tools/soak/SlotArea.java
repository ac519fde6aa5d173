package io.jrxe.tools.soak;

import java.util.ArrayDeque;
import java.util.BitSet;

/**
 * The memory a NIC keeps for one QP pair: slots that operations own while outstanding (a message, a read's
 * target, an atomic's result), then the atomic cells.
 */
final class SlotArea {
    /** 8-byte atomic targets per QP pair and direction. */
    static final int CELLS = 4;

    final long base;
    final int slotSize;
    /** A QP pair's: room for a full window each way, and a spare. */
    final int slots;
    final ArrayDeque<Integer> free = new ArrayDeque<>();
    /**
     * Slots and cells whose bytes nobody can know any more: an operation that failed with its QP may have
     * written them in part (or an atomic may or may not have run). No byte check looks at them again, and no
     * operation gets such a slot again: only a failed pair's operations ever had them.
     */
    final BitSet indeterminateSlots = new BitSet();
    final BitSet indeterminateCells = new BitSet();

    /** A QP pair's area, for messages on a path of this MTU. */
    SlotArea(long base, int mtu) {
        this(base, mtu, 2 * SoakRun.WINDOW + 2);
    }

    SlotArea(long base, int mtu, int slots) {
        this.base = base;
        this.slots = slots;
        this.slotSize = slotSize(mtu);
        for (int i = 0; i < slots; i++) {
            free.add(i);
        }
    }

    /** The longest message, and room past its end in which bytes written too far show. */
    private static int slotSize(int mtu) {
        return (WorkloadGenerator.maxLength(mtu) + SoakNic.MAX_INLINE + 2 * 64 + 63) & ~63;
    }

    long slot(int i) {
        return base + (long) i * slotSize;
    }

    long cell(int i) {
        return base + (long) slots * slotSize + 8L * i;
    }

    long end() {
        return base + (long) slots * slotSize + 64;
    }

    int take() {
        Integer s = free.poll();
        if (s == null) {
            throw new IllegalStateException("no free slot: the window accounting is wrong");
        }
        return s;
    }
}
