package io.jrxe.tools.compare;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.VerbsException;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A step's own RC connection: a CQ and a QP on each node, A's QP connected to B's and back, PSNs fixed. Each step
 * has a new one, so that one step's errors (a QP in the error state, flushed work) cannot reach the next, and so
 * that its packets are told apart by their QP numbers.
 */
final class Connection implements AutoCloseable {
    static final int DEPTH = 128;

    final Cq cqA;
    final Cq cqB;
    final Qp qpA;
    final Qp qpB;
    private boolean bDestroyed;
    private final Deque<AutoCloseable> made = new ArrayDeque<>();

    private Connection(Node a, Node b) throws VerbsException {
        try {
            cqA = keep(a.ctx.createCq(2 * DEPTH, null));
            cqB = keep(b.ctx.createCq(2 * DEPTH, null));
            QpCapabilities caps = new QpCapabilities(DEPTH, DEPTH, 2, 2, 0);
            qpA = keep(a.pd.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false)));
            qpB = keep(b.pd.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false)));
        } catch (VerbsException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Two new QPs, connected both ways with {@code s} and the path MTU {@code mtu}. */
    static Connection open(Node a, Node b, QpSettings s, Mtu mtu) throws VerbsException {
        Connection c = new Connection(a, b);
        try {
            connect(c.qpA, c.qpB.qpNum(), b, a.gid.index(), QpSettings.PSN_A, QpSettings.PSN_B, s, mtu);
            connect(c.qpB, c.qpA.qpNum(), a, b.gid.index(), QpSettings.PSN_B, QpSettings.PSN_A, s, mtu);
            return c;
        } catch (VerbsException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private static void connect(Qp qp, int peerQpn, Node peer, int sgidIndex, int myPsn, int peerPsn, QpSettings s, Mtu mtu)
            throws VerbsException {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .accessFlags(s.qpAccess()));
        qp.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(peer.gid.gid(), sgidIndex))
                .pathMtu(mtu).destQpn(peerQpn).rqPsn(peerPsn).maxDestRdAtomic(1).minRnrTimer(s.minRnrTimer()));
        qp.modify(new QpAttributes().state(QpState.RTS).timeout(s.timeout()).retryCnt(s.retryCnt())
                .rnrRetry(s.rnrRetry()).sqPsn(myPsn).maxRdAtomic(1));
    }

    /** Destroys B's QP: A's next request goes to a QP that is gone. */
    void destroyB() throws VerbsException {
        made.remove(qpB);
        qpB.close();
        bDestroyed = true;
    }

    /** The states of both QPs, e.g. "A RTS, B ERR". */
    String states() {
        return "A " + state(qpA) + ", B " + (bDestroyed ? "destroyed" : state(qpB));
    }

    private static String state(Qp qp) {
        try {
            return String.valueOf(qp.query().state());
        } catch (VerbsException e) {
            return "? (" + e.getMessage() + ")";
        }
    }

    private <T extends AutoCloseable> T keep(T resource) {
        made.push(resource);
        return resource;
    }

    @Override
    public void close() {
        while (!made.isEmpty()) {
            try {
                made.pop().close();
            } catch (Exception e) {
                // best effort: the node's context goes at the end of the run in any case
            }
        }
    }
}
