package io.jrxe.tools.soak;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.Random;

/**
 * Requests from one NIC to the other over QP pair {@code index}: the operations outstanding on it in posting
 * order, and the values the model expects in the responder's atomic cells.
 */
final class Lane {
    final int index;
    final SoakNic from;
    final SoakNic to;
    final int mtu;
    /** Operations whose send completion is due, in posting order: the order they must complete in. */
    final ArrayDeque<Operation> sends = new ArrayDeque<>();
    /** Operations whose receive completion is due, in the order of their messages. */
    final ArrayDeque<Operation> recvs = new ArrayDeque<>();
    /** Each cell's value once every atomic posted on it so far has run. */
    final long[] cellValue = new long[SlotArea.CELLS];
    final int[] cellOutstanding = new int[SlotArea.CELLS];
    int active;
    /**
     * The QP pair failed (a QP of it is in ERR): no new work goes to this lane, and what was outstanding on
     * it completes as an expected failure. Both lanes of a pair fail together.
     */
    boolean failed;
    /** A UC or UD lane's standing receives and the one operation it has in flight; null on RC. */
    StandingReceives standing;
    /** {@code --with mw} on RC: the window of the requester's memory the peer accesses, and the peer's; else null. */
    MemoryWindows.Window window;
    MemoryWindows.Window peerWindow;
    /** UD: the handle of the address handle of the peer, which every send names; 0 on RC and UC. */
    int ahHandle;
    /** How many operations the generator lets be outstanding here for now (redrawn after each burst). */
    int depth = SoakRun.WINDOW;

    /** Starts each atomic cell at a random value, in memory and in the model. */
    Lane(int index, SoakNic from, SoakNic to, Random random) {
        this.index = index;
        this.from = from;
        this.to = to;
        this.mtu = from.mtus[index];
        for (int c = 0; c < SlotArea.CELLS; c++) {
            cellValue[c] = random.nextLong();
            MemorySegment.copy(new long[] {cellValue[c]}, 0, to.memory, ValueLayout.JAVA_LONG_UNALIGNED,
                    to.areas[index].cell(c), 1);
            to.shadow.set(ValueLayout.JAVA_LONG_UNALIGNED, to.areas[index].cell(c), cellValue[c]);
        }
    }

    /** An RC lane whose responder takes its receives from its SRQ ({@code --with srq}), not from the QP's own queue. */
    boolean receivesFromSrq() {
        return standing == null && to.srqReceives != null;
    }

    SlotArea localArea() {
        return from.areas[index];
    }

    SlotArea remoteArea() {
        return to.areas[index];
    }

    @Override
    public String toString() {
        return "QP pair " + index + " " + from + "->" + to;
    }
}
