package io.jrxe.tools.soak;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the NICs must do, as the checker expects it: which completion each work request id is due, in which
 * order each lane's completions come, and what every byte of memory must hold (the NICs' shadows and the
 * lanes' atomic cells).
 *
 * <p>An operation's own buffers are in the model from the moment the generator sets them up. Its result goes
 * into the model when its last completion arrives, except an atomic's target: a responder executes a QP's
 * atomics in PSN order, so the model runs the cells ahead, in posting order.
 */
final class SoakModel {
    final List<Lane> lanes = new ArrayList<>();
    /** {@code --with mw}: what the memory windows did; else null. */
    MemoryWindows windows;
    private final Map<Long, Operation> awaitingSend = new HashMap<>();
    private final Map<Long, Operation> awaitingRecv = new HashMap<>();
    /** The ids of the operations whose send (receive) completion arrived: a second one is a duplicate. */
    private final BitSet sendsTaken = new BitSet();
    private final BitSet recvsTaken = new BitSet();

    /** The operation was posted: its completions are due, in the lane's order. */
    void posted(Operation op) {
        Lane lane = op.lane;
        if (op.needsRecv) {
            lane.recvs.add(op);
            awaitingRecv.put(op.recvWrId(), op);
        }
        lane.sends.add(op);
        lane.active++;
        awaitingSend.put(op.id, op);
    }

    /**
     * An atomic was posted with its operands in {@code op.data}: what its target cell holds after it, and what
     * the requester must get back, follow from the cell's value after the atomics posted before it.
     */
    void atomicPosted(Operation op) {
        Lane lane = op.lane;
        long before = lane.cellValue[op.cell];
        op.expectedOriginal = before;
        MemorySegment operands = MemorySegment.ofArray(op.data);
        long operand = operands.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        long after = switch (op.kind) {
            case ATOMIC_CMP_AND_SWP -> before == operand ? operands.get(ValueLayout.JAVA_LONG_UNALIGNED, 8) : before;
            case ATOMIC_FETCH_AND_ADD -> before + operand;
            case ATOMIC_WRITE -> operand;
            default -> throw new IllegalArgumentException(op.kind + " is not an atomic");
        };
        lane.cellValue[op.cell] = after;
        lane.cellOutstanding[op.cell]++;
        lane.to.shadow.set(ValueLayout.JAVA_LONG_UNALIGNED, lane.remoteArea().cell(op.cell), after);
    }

    /** The send completion of {@code wrId} arrived: the operation that waited for it, or null. */
    Operation takeSend(long wrId) {
        Operation op = awaitingSend.remove(wrId);
        if (op != null) {
            sendsTaken.set(Math.toIntExact(op.id));
        }
        return op;
    }

    /** The receive completion of {@code wrId} arrived: the operation that waited for it, or null. */
    Operation takeRecv(long wrId) {
        Operation op = awaitingRecv.remove(wrId);
        if (op != null) {
            recvsTaken.set(Math.toIntExact(op.id));
        }
        return op;
    }

    /** Whether the send completion of {@code wrId} arrived already. */
    boolean sendTaken(long wrId) {
        return wrId >= 0 && wrId <= Integer.MAX_VALUE && sendsTaken.get((int) wrId);
    }

    /** Whether the receive completion of {@code wrId} arrived already. */
    boolean recvTaken(long wrId) {
        long id = Operation.idOfRecv(wrId);
        return id >= 0 && id <= Integer.MAX_VALUE && recvsTaken.get((int) id);
    }

    /** Every QP pair failed: no lane is left to post on. */
    boolean noPairSurvived() {
        for (Lane lane : lanes) {
            if (!lane.failed) {
                return false;
            }
        }
        return !lanes.isEmpty();
    }

    /** The NIC where the result of a finished operation is. */
    static SoakNic resultNic(Operation op) {
        return op.kind.resultAtRequester() ? op.lane.from : op.lane.to;
    }

    /**
     * The operation finished: its result goes into the model; where it is, in {@link #resultNic}'s memory, or -1
     * when it has none of its own (an ATOMIC WRITE's cell is in the model from its posting; a FLUSH moves nothing).
     */
    long applyResult(Operation op) {
        Lane lane = op.lane;
        return switch (op.kind.flow) {
            case READ -> {
                long at = lane.localArea().slot(op.localSlot);
                MemorySegment.copy(op.data, 0, lane.from.shadow, ValueLayout.JAVA_BYTE, at, op.length);
                yield at;
            }
            case ATOMIC -> {
                long at = lane.localArea().slot(op.localSlot);
                lane.from.shadow.set(ValueLayout.JAVA_LONG_UNALIGNED, at, op.expectedOriginal);
                yield at;
            }
            // A SEND through an SRQ has no slot of its own: its bytes were checked in the receive's buffer.
            case MESSAGE -> {
                if (op.remoteSlot < 0) {
                    yield -1;
                }
                long at = lane.remoteArea().slot(op.remoteSlot);
                MemorySegment.copy(op.data, 0, lane.to.shadow, ValueLayout.JAVA_BYTE, at, op.length);
                yield at;
            }
            case ATOMIC_WRITE, FLUSH, LOCAL -> -1;
        };
    }

    /** The lane whose requests leave {@code from} on its QP {@code qpn}, or null. */
    Lane lane(SoakNic from, int qpn) {
        Integer index = from.qpIndex.get(qpn);
        if (index == null) {
            return null;
        }
        for (Lane lane : lanes) {
            if (lane.from == from && lane.index == index) {
                return lane;
            }
        }
        return null;
    }

    /** The lane whose requests arrive at {@code to} on QP pair {@code index}, or null. */
    Lane incoming(SoakNic to, int index) {
        Lane incoming = null;
        for (Lane lane : lanes) {
            if (lane.to == to && lane.index == index) {
                incoming = lane;
            }
        }
        return incoming;
    }

    /** Operations posted and not finished: every one whose send is due, then those waiting only for a receive. */
    List<Operation> unfinished() {
        List<Operation> ops = new ArrayList<>();
        for (Lane lane : lanes) {
            for (Operation op : lane.sends) {
                if (!op.finished) {
                    ops.add(op);
                }
            }
            for (Operation op : lane.recvs) {
                if (!op.finished && op.sendDone) {
                    ops.add(op);
                }
            }
        }
        return ops;
    }

    /** The completions still due. */
    long outstandingWrs() {
        long n = 0;
        for (Operation op : unfinished()) {
            n += op.missingCompletions();
        }
        return n;
    }
}
