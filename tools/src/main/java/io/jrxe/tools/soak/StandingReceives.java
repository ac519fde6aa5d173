package io.jrxe.tools.soak;

import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.BitSet;

/**
 * The receive side of a UC or UD lane, and how its completions are checked ({@code --with uc}, {@code --with ud}).
 *
 * <p>UC has no acknowledgements and no retries: the responder drops a message whose packet is missing and
 * starts again at the next FIRST or ONLY packet, whatever its PSN. On a network that loses, reorders and
 * duplicates, a message may then be lost, delivered twice (a duplicated ONLY packet starts it again) or, for a
 * WRITE, written in part; which receive a message lands in cannot be known ahead, as it can on RC. So a UC lane
 * <ul>
 * <li>keeps {@link #STANDING} receives posted, each with a buffer of a whole slot, tied to no operation, and
 *     posts the next one as each completes;</li>
 * <li>has one operation in flight at a time, finished only a quarantine ({@link SoakConfig#quarantineNanos}) after its send completion:
 *     by then every copy of its packets has arrived or been dropped;</li>
 * <li>checks each receive completion against that operation: opcode, byte_len, immediate, and a SEND's bytes;
 *     a message delivered twice is no error, one that never arrives is an expected failure;</li>
 * <li>and at the end has both QPs taken to ERR, so that the standing receives flush, each exactly once.</li>
 * </ul>
 *
 * <p>UD is checked the same way: a datagram (a SEND of up to one MTU, in one packet) may be lost (an expected
 * failure) or, when the network duplicates its packet, received twice. UD has no PSN check and no duplicate
 * detection, so the second copy is a datagram received, not a NIC bug: it is counted apart, and checked byte for
 * byte like the first. What UD must never do is deliver a wrong one: a corrupted packet fails its ICRC and is
 * dropped. Its receive buffers start with the 40-byte GRH area, which byte_len counts; the message follows it.
 */
final class StandingReceives {
    /** Set in a standing receive's wr_id (an operation's receive has bit 40). */
    private static final long TAG = 1L << 41;
    /** A message is delivered at most twice: one more receive, and none is ever missing. */
    static final int STANDING = 3;

    /** A UD receive's buffer starts with room for the GRH (for RoCEv2 over IPv4: 20 zero bytes and the IPv4 header). */
    static final int GRH = 40;

    private final Lane lane;
    /** UC or UD. */
    private final QpType type;
    /** The standing receives in posting order: {wr_id, slot}. */
    private final ArrayDeque<long[]> posted = new ArrayDeque<>();
    private final BitSet completed = new BitSet();
    private long next;
    /** For the report: operations finished, lost on the way, and messages delivered a second time. */
    private int finished;
    private int lost;
    private int twice;
    /** The operation whose packets may be on the wire, or null. */
    Operation inFlight;
    /** The QPs go to ERR: the standing receives flush, and none is posted again. */
    boolean closing;

    StandingReceives(Lane lane, QpType type) {
        this.lane = lane;
        this.type = type;
    }

    /** Makes the lane a UC or UD one: its receives stand, posted now. */
    static void open(Lane lane, QpType type) throws VerbsException {
        lane.standing = new StandingReceives(lane, type);
        lane.standing.start();
    }

    boolean isUd() {
        return type == QpType.UD;
    }

    /** The bytes in front of a message in a receive buffer, which byte_len counts too: the GRH area on UD. */
    int header() {
        return type == QpType.UD ? GRH : 0;
    }

    /** At the end: every UC or UD lane's responder QP goes to ERR, so that its standing receives flush. */
    static void closeAll(SoakModel model) throws VerbsException {
        for (Lane lane : model.lanes) {
            if (lane.standing != null && !lane.standing.closing) {
                lane.standing.closing = true;
                lane.to.qps[lane.index].modify(new QpAttributes().state(QpState.ERR));
            }
        }
    }

    /** The standing receives of every UC lane still without a completion. */
    static int left(SoakModel model) {
        int left = 0;
        for (Lane lane : model.lanes) {
            left += lane.standing != null ? lane.standing.posted.size() : 0;
        }
        return left;
    }

    /** The in-flight operation finished. */
    void finished(Operation op) {
        inFlight = null;
        finished++;
        lost += op.expectedFailure ? 1 : 0;
    }

    /** What the lanes of this transport (UC or UD) did, in one line, or null without any. */
    static String summary(SoakModel model, QpType type) {
        int lanes = 0;
        int finished = 0;
        int lost = 0;
        int twice = 0;
        for (Lane lane : model.lanes) {
            StandingReceives s = lane.standing;
            if (s != null && s.type == type) {
                lanes++;
                finished += s.finished;
                lost += s.lost;
                twice += s.twice;
            }
        }
        if (lanes == 0) {
            return null;
        }
        return type == QpType.UC
                ? "UC: " + finished + " operations, " + lost + " of them lost on the way (expected failures), " + twice
                        + " messages delivered twice (as UC may when a packet is duplicated)"
                : "UD: " + finished + " datagrams, " + lost + " of them lost on the way (expected failures), " + twice
                        + " received twice (UD has no duplicate detection: a duplicated packet is a second datagram)";
    }

    static boolean isStanding(long wrId) {
        return (wrId & TAG) != 0;
    }

    /** Posts the standing receives, on slots of their own that no byte check looks at: a dropped message may write any part. */
    void start() throws VerbsException {
        SlotArea area = lane.remoteArea();
        for (int i = 0; i < STANDING; i++) {
            int slot = area.take();
            area.indeterminateSlots.set(slot);
            post(slot);
        }
    }

    private void post(int slot) throws VerbsException {
        SlotArea area = lane.remoteArea();
        lane.to.fill(area.slot(slot), area.slotSize, SoakNic.POISON);
        RecvWr r = new RecvWr(1);
        r.wrId = TAG | next++;
        r.sgl.add(lane.to.address(area.slot(slot)), area.slotSize, lane.to.mr.lkey());
        posted.add(new long[] {r.wrId, slot});
        lane.to.qps[lane.index].postRecv(r);
    }

    /** A completion of a standing receive: checked, and the receive posted again. */
    void completion(WorkCompletion wc, SoakReport report, MemoryChecker memory) throws VerbsException {
        long[] head = posted.peekFirst();
        long n = wc.wrId() & ~TAG;
        if (head == null || head[0] != wc.wrId()) {
            if (n <= Integer.MAX_VALUE && completed.get((int) n)) {
                report.duplicated("a second completion of the same work request, on " + lane.to + ": " + wc);
                return;
            }
            boolean later = posted.removeIf(p -> p[0] == wc.wrId());
            report.stray((later ? "a " + type + " receive completed before the one posted before it" : "a " + type
                    + " receive completion no posted receive was waiting for") + ", on " + lane.to + ": " + wc);
            return;
        }
        posted.removeFirst();
        completed.set((int) n);
        if (wc.status() == WcStatus.WR_FLUSH_ERR && closing) {
            return;
        }
        String wrong = problem(wc, (int) head[1], memory);
        if (wrong == null) {
            twice += inFlight.recvSucceeded ? 1 : 0;
            inFlight.recvSucceeded = true;
        } else if (inFlight != null) {
            report.failed(inFlight, type + " " + wrong);
        } else {
            report.stray(type + " " + wrong + ", on " + lane.to);
        }
        if (!closing) {
            post((int) head[1]);
        }
    }

    /** What is wrong with a receive completion, given the operation in flight, or null. */
    private String problem(WorkCompletion wc, int slot, MemoryChecker memory) {
        Operation op = inFlight;
        if (wc.status() != WcStatus.SUCCESS) {
            return "receive completion " + wc;
        }
        if (op == null || !op.kind.consumesReceive()) {
            return "receive completion " + wc + " with no message in flight";
        }
        String wrong = op.receiveProblem(wc, header());
        if (wrong == null && type == QpType.UD && wc.srcQp() != lane.from.qps[lane.index].qpNum()) {
            wrong = String.format("receive completion %s, expected from QP 0x%06x", wc, lane.from.qps[lane.index].qpNum());
        }
        if (wrong != null || !op.kind.isSend()) {
            return wrong;
        }
        // Past byte_len the buffer may hold a message dropped part way: only the message itself is checked.
        long at = lane.remoteArea().slot(slot) + header();
        memory.maybeTamper(op, at);
        long differs = MemorySegment.mismatch(lane.to.memory, at, at + op.length, MemorySegment.ofArray(op.data), 0,
                op.length);
        return differs < 0 ? null : String.format("receive completion %s: byte %d of its buffer is 0x%02x, expected 0x%02x",
                wc, differs, lane.to.memory.get(ValueLayout.JAVA_BYTE, at + differs) & 0xFF, op.data[(int) differs] & 0xFF);
    }
}
