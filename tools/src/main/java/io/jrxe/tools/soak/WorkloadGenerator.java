package io.jrxe.tools.soak;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The seeded random mix: which lane gets a burst of how many operations, of which kind and size, with which
 * data, scatter/gather lists and receive buffers, posted chained or one by one. Each operation's buffers are
 * set up in memory and in the model before it is posted.
 *
 * <p>Every choice is a draw from the run's one {@link Random}, shared with the setup and the checker: a
 * seed replays only while the draws stay in the same order.
 *
 * <p>A lane whose QP pair failed is left out of the lanes a burst is drawn among, just as a lane with a full
 * window is: the draw is the same call, over the lanes still open. The failure itself follows from the seed, so
 * a run with a failed pair replays exactly too, and a run in which no pair fails draws as it always did.
 */
final class WorkloadGenerator {
    private final Random random;
    private final SoakModel model;
    private final long ops;
    /** The kinds drawn from: {@link OperationKind#MIX}, and what {@code --with} added after it. */
    private final OperationKind[] mix;
    private final WorkRequests requests;
    private long nextId;
    private long posted;

    WorkloadGenerator(Random random, SoakModel model, long ops, OperationKind[] mix) {
        this.random = random;
        this.model = model;
        this.ops = ops;
        this.mix = mix;
        this.requests = new WorkRequests(random);
    }

    /** The longest message the generator makes on a path of this MTU. */
    static int maxLength(int mtu) {
        return 4 * mtu + mtu / 2 + 1;
    }

    long posted() {
        return posted;
    }

    /** Posts bursts of work requests on lanes that have room, while the dice say so. */
    void postSome() throws VerbsException {
        List<Lane> lanes = model.lanes;
        List<Lane> open = new ArrayList<>(lanes.size());
        while (posted < ops && random.nextInt(4) != 0) {
            open.clear();
            for (Lane lane : lanes) {
                if (!lane.failed && (lane.active < window(lane) || lane.active == 0)) {
                    open.add(lane);
                }
            }
            if (open.isEmpty()) {
                return;
            }
            Lane lane = open.get(random.nextInt(open.size()));
            int room = Math.max(1, window(lane) - lane.active);
            int burst = 1 + random.nextInt((int) Math.min(Math.min(4, room), ops - posted));
            postBurst(lane, burst);
            lane.depth = 1 + random.nextInt(SoakRun.WINDOW);
        }
    }

    /** How many operations the lane may have outstanding now: one on UC (see {@link StandingReceives}). */
    private static int window(Lane lane) {
        return lane.standing != null ? 1 : Math.min(lane.depth, SoakRun.WINDOW);
    }

    private void postBurst(Lane lane, int n) throws VerbsException {
        SendWr first = null;
        SendWr last = null;
        RecvWr firstRecv = null;
        RecvWr lastRecv = null;
        for (int k = 0; k < n; k++) {
            Operation op = prepare(lane);
            SendWr wr = requests.sendWr(op);
            if (first == null) {
                first = wr;
            } else {
                last.next(wr);
            }
            last = wr;
            if (op.needsRecv && !lane.receivesFromSrq()) {
                RecvWr r = requests.recvWr(op);
                if (firstRecv == null) {
                    firstRecv = r;
                } else {
                    lastRecv.next(r);
                }
                lastRecv = r;
            }
            model.posted(op);
            posted++;
        }
        // Receives first, always enough of them: an RNR NAK is not what this soak is about.
        if (firstRecv != null) {
            lane.to.qps[lane.index].postRecv(firstRecv);
        }
        if (random.nextBoolean()) {
            lane.from.qps[lane.index].postSend(first);
        } else {
            for (SendWr wr = first; wr != null; ) {
                SendWr next = wr.next();
                wr.next(null);
                lane.from.qps[lane.index].postSend(wr);
                wr = next;
            }
        }
    }

    private int randomLength(int mtu) {
        int r = random.nextInt(100);
        if (r < 8) {
            return 0;
        } else if (r < 30) {
            return 1 + random.nextInt(64);
        } else if (r < 40) {
            return mtu * (1 + random.nextInt(4));
        } else if (r < 45) {
            return mtu * (1 + random.nextInt(4)) + (random.nextBoolean() ? 1 : -1);
        } else if (r < 70) {
            return 1 + random.nextInt(mtu);
        }
        return mtu + 1 + random.nextInt(3 * mtu + mtu / 2);
    }

    /** A UD datagram's length: 0 to one MTU, the edges often. */
    private int datagramLength(int mtu) {
        int r = random.nextInt(100);
        if (r < 8) {
            return 0;
        } else if (r < 16) {
            return mtu - random.nextInt(2);
        } else if (r < 50) {
            return 1 + random.nextInt(64);
        }
        return 1 + random.nextInt(mtu);
    }

    /** Picks the operation and sets up its buffers, in memory and in the model. */
    private Operation prepare(Lane lane) {
        StandingReceives uc = lane.standing;
        boolean ud = uc != null && uc.isUd();
        OperationKind[] kinds = uc == null ? mix : ud ? OperationKind.UD_MIX : OperationKind.UC_MIX;
        OperationKind kind = kinds[random.nextInt(kinds.length)];
        if (lane.window != null && (kind == OperationKind.MW_WRITE || kind == OperationKind.MW_READ
                || kind == OperationKind.MW_INVALIDATE)) {
            kind = MemoryWindows.resolve(lane, kind, random);
        }
        Operation op = new Operation(nextId++, lane, kind);
        SoakNic from = lane.from;
        SoakNic to = lane.to;
        SlotArea local = lane.localArea();
        SlotArea remote = lane.remoteArea();
        switch (op.kind.flow) {
            case MESSAGE -> {
                op.length = ud ? datagramLength(lane.mtu) : randomLength(lane.mtu);
                op.data = randomBytes(op.length);
                op.inline = op.length <= SoakNic.MAX_INLINE && random.nextInt(3) == 0;
                op.localSlot = local.take();
                from.put(local.slot(op.localSlot), op.data);
                // A UC or UD SEND lands in one of the lane's standing receives, not in a slot of its own.
                // So does a SEND on an RC lane whose responder receives from its SRQ.
                if (!op.kind.isSend() || uc == null && !lane.receivesFromSrq()) {
                    op.remoteSlot = remote.take();
                    to.fill(remote.slot(op.remoteSlot), remote.slotSize, SoakNic.POISON);
                }
                op.imm = random.nextInt();
                op.needsRecv = uc == null && op.kind.consumesReceive();
            }
            case READ -> {
                op.length = randomLength(lane.mtu);
                op.data = randomBytes(op.length);
                op.remoteSlot = remote.take();
                to.put(remote.slot(op.remoteSlot), op.data);
                op.localSlot = local.take();
                from.fill(local.slot(op.localSlot), local.slotSize, SoakNic.POISON);
            }
            case ATOMIC -> {
                op.length = 8;
                op.localSlot = local.take();
                from.fill(local.slot(op.localSlot), local.slotSize, SoakNic.POISON);
                op.cell = random.nextInt(SlotArea.CELLS);
                long current = lane.cellValue[op.cell];
                if (op.kind == OperationKind.ATOMIC_CMP_AND_SWP) {
                    // Half of the compares match, so that swaps happen.
                    op.data = longs(random.nextBoolean() ? current : random.nextLong(), random.nextLong());
                } else {
                    long add = random.nextBoolean() ? 1 + random.nextInt(1000) : random.nextLong();
                    op.data = longs(add, 0);
                }
                model.atomicPosted(op);
            }
            case ATOMIC_WRITE -> {
                // The 8 bytes come from the requester's buffer; the rest of the slot keeps what it held.
                op.length = 8;
                op.localSlot = local.take();
                op.cell = random.nextInt(SlotArea.CELLS);
                op.data = randomBytes(8);
                from.put(local.slot(op.localSlot), op.data);
                model.atomicPosted(op);
            }
            case FLUSH -> {
                // No byte moves: both slots keep what they held, which the model knows, and are checked for it.
                op.length = randomLength(lane.mtu);
                op.localSlot = local.take();
                op.remoteSlot = remote.take();
            }
        }
        if (uc != null) {
            uc.inFlight = op;
        }
        MemoryWindows.posted(op, random);
        return op;
    }

    private static byte[] longs(long x, long y) {
        byte[] b = new byte[16];
        MemorySegment s = MemorySegment.ofArray(b);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, x);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, y);
        return b;
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
