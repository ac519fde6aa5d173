package io.jrxe.tools.soak;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.VerbsException;

import java.util.Random;

/**
 * {@code --with mw}: a type 2 memory window per RC lane, owned by the lane's requester NIC and spanning its memory
 * of the pair (slots and cells), which the peer's operations reach through the window's R_Key.
 *
 * <p>A window goes UNBOUND, then BINDING (a BIND_MW its owner posted, with the key's next variant, half of the
 * times ZERO_BASED), VALID once the bind completed, INVALIDATING (its owner's LOCAL_INV, or the peer's
 * SEND_WITH_INV naming its key), and UNBOUND again once that completed. The generator resolves each window draw
 * ({@link OperationKind#MW_WRITE}, {@link OperationKind#MW_READ}, {@link OperationKind#MW_INVALIDATE}) by these
 * states: a lane first binds its own window when it is unbound; it accesses the peer's window only while that is
 * VALID (else the plain RDMA operation through the MR's key is drawn); and it invalidates a window only when no
 * access through it is outstanding or finished less than a quarantine ago ({@link SoakConfig#quarantineNanos}).
 * So every access through a window is through a valid one, and must succeed:
 * the soak never posts an access through an invalidated key (which would take its RC pair to ERR, as a remote
 * access error must, and end the pair's part in the run). That an invalidated key is refused is MemoryKeysTest's.
 *
 * <p>The quarantine is for a late copy of an access's request. A duplicate WRITE is only acknowledged again, but
 * a duplicate READ is answered again, and its key checked again as it is (as rxe's read_reply checks it): through
 * an invalidated window that is a remote access error, and the responder's QP goes to ERR.
 */
final class MemoryWindows {
    enum State { UNBOUND, BINDING, VALID, INVALIDATING, DEAD }

    /** One window: its owner, the area it spans, its key and state, and the accesses through it not yet released. */
    static final class Window {
        final SoakNic owner;
        final SlotArea area;
        /** The key the window has in the owner's memory tables (after the last bind posted). */
        int key;
        State state = State.UNBOUND;
        boolean zeroBased;
        int users;

        Window(SoakNic owner, SlotArea area, Mw mw) {
            this.owner = owner;
            this.area = area;
            this.key = mw.rkey();
        }

        /** The address an access through the window names for this offset of the owner's memory. */
        long address(long offset) {
            return zeroBased ? offset - area.base : owner.address(offset);
        }
    }

    /** What the windows did, for the report. */
    private long binds;
    private long localInvalidations;
    private long remoteInvalidations;
    private long accesses;

    /** Gives each RC lane a window of its requester's, unbound, and each the peer's to access. */
    static void open(Lane ab, Lane ba) throws VerbsException {
        for (Lane lane : new Lane[] {ab, ba}) {
            lane.window = new Window(lane.from, lane.localArea(), lane.from.pd.allocMw(2));
        }
        ab.peerWindow = ba.window;
        ba.peerWindow = ab.window;
    }

    /** ibv_inc_rkey: the same index, the next variant. */
    static int nextKey(int key) {
        return (key & ~0xFF) | ((key + 1) & 0xFF);
    }

    /** What a window draw on this lane becomes, by the windows' states; may draw once more, to choose how to invalidate. */
    static OperationKind resolve(Lane lane, OperationKind drawn, Random random) {
        Window own = lane.window;
        Window peer = lane.peerWindow;
        if (own.state == State.UNBOUND) {
            return OperationKind.MW_BIND;
        }
        if (drawn != OperationKind.MW_INVALIDATE) {
            return peer.state == State.VALID ? drawn
                    : drawn == OperationKind.MW_WRITE ? OperationKind.RDMA_WRITE : OperationKind.RDMA_READ;
        }
        boolean remote = peer.state == State.VALID && peer.users == 0;
        boolean local = own.state == State.VALID && own.users == 0;
        if (remote && local) {
            return random.nextBoolean() ? OperationKind.MW_INVALIDATE : OperationKind.MW_LOCAL_INV;
        }
        return remote ? OperationKind.MW_INVALIDATE : local ? OperationKind.MW_LOCAL_INV : OperationKind.SEND;
    }

    /** The operation, just set up, takes its window and key, and moves the window on. */
    static void posted(Operation op, Random random) {
        Lane lane = op.lane;
        switch (op.kind) {
            case MW_BIND -> {
                Window w = lane.window;
                op.window = w;
                op.windowKey = nextKey(w.key);
                w.zeroBased = random.nextBoolean();
                w.state = State.BINDING;
            }
            case MW_LOCAL_INV -> {
                op.window = lane.window;
                op.windowKey = op.window.key;
                op.window.state = State.INVALIDATING;
            }
            case MW_INVALIDATE -> {
                op.window = lane.peerWindow;
                op.windowKey = op.window.key;
                op.window.state = State.INVALIDATING;
            }
            case MW_WRITE, MW_READ -> {
                op.window = lane.peerWindow;
                op.windowKey = op.window.key;
                op.window.users++;
            }
            default -> {
            }
        }
    }

    /** The operation finished: its window moves on (a failed bind or invalidation leaves it DEAD, as its pair is). */
    void finished(Operation op) {
        Window w = op.window;
        if (w == null) {
            return;
        }
        boolean done = !op.expectedFailure && !op.failed;
        switch (op.kind) {
            case MW_BIND -> {
                w.key = op.windowKey;
                w.state = done ? State.VALID : State.DEAD;
                binds += done ? 1 : 0;
            }
            case MW_LOCAL_INV, MW_INVALIDATE -> {
                w.state = done ? State.UNBOUND : State.DEAD;
                localInvalidations += done && op.kind == OperationKind.MW_LOCAL_INV ? 1 : 0;
                remoteInvalidations += done && op.kind == OperationKind.MW_INVALIDATE ? 1 : 0;
            }
            default -> accesses += done ? 1 : 0; // it holds its window until released
        }
    }

    /** An access finished a quarantine ago: no copy of its request can arrive any more, and its window may go. */
    static void released(Operation op) {
        op.window.users--;
    }

    /** The access rights a bind gives: RDMA WRITE and READ, and ZERO_BASED addressing when the window has it. */
    static int bindAccess(Window w) {
        return Access.REMOTE_WRITE | Access.REMOTE_READ | (w.zeroBased ? Access.ZERO_BASED : 0);
    }

    /** What the windows did, in one line. */
    String summary() {
        return "MW: " + accesses + " RDMA WRITEs and READs through a window's R_Key, " + binds + " binds, "
                + localInvalidations + " local and " + remoteInvalidations + " remote (SEND_WITH_INV) invalidations";
    }
}
