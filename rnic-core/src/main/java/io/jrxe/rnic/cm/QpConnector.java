package io.jrxe.rnic.cm;

import io.jrxe.rnic.Nic;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.port.PeerAddress;

/**
 * Moves the QPs the CM connects through INIT, RTR and RTS with the attributes the exchange
 * carried, through the NIC's modify-QP as an application's (the same checks, then the engines are told),
 * and to ERR when a connection fails or ends, so that no half-made QP is left behind.
 */
final class QpConnector {
    /** RNR NAK timer the CM's QPs ask for (0.64 ms), as librdmacm's. */
    static final int MIN_RNR_TIMER = 12;

    private final Nic nic;
    private final NicResources rnic;

    QpConnector(Nic nic) {
        this.nic = nic;
        this.rnic = nic.resources();
    }

    /** The QP with this number, or null. */
    QpHandle handle(int qpn) {
        return nic.qp(qpn);
    }

    /** The RC QP with this number, in RESET or INIT. */
    QpHandle usable(int qpn) throws RnicException {
        QpHandle handle = nic.qp(qpn);
        QueuePair qp = handle == null ? null : handle.qp();
        if (qp == null) {
            throw RnicException.invalid(String.format("QP 0x%06x does not exist on %s", qpn, rnic.name()));
        }
        if (qp.type() != QpType.RC) {
            throw RnicException.invalid(qp + ": the CM connects RC QPs");
        }
        if (qp.state() != QpState.RESET && qp.state() != QpState.INIT) {
            throw RnicException.invalid(qp + " is in " + qp.state() + "; the CM connects a QP in RESET or INIT");
        }
        return handle;
    }

    void init(QpHandle qp) throws RnicException {
        if (qp.qp().state() == QpState.RESET) {
            modify(qp, new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                    .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
        }
    }

    /** INIT -> RTR -> RTS with the connection's attributes. */
    void connect(QpHandle qp, CmConnection c) throws RnicException {
        init(qp);
        byte[] dgid = c.peer.gid();
        modify(qp, new QpAttributes().state(QpState.RTR)
                .av(new AddressVector(dgid, rnic.port().defaultGidIndex(), 64, 0, c.flowLabel, 0, 1))
                .pathMtu(Mtu.ofVerbsValue(c.pathMtu)).destQpn(c.remoteQpn).rqPsn(c.localStartingPsn)
                .maxDestRdAtomic(Math.min(c.responderResources, rnic.attributes().maxQpRdAtom()))
                .minRnrTimer(MIN_RNR_TIMER));
        modify(qp, new QpAttributes().state(QpState.RTS).sqPsn(c.remoteStartingPsn).timeout(c.localAckTimeout)
                .retryCnt(c.retryCount).rnrRetry(c.rnrRetryCount)
                .maxRdAtomic(Math.min(c.initiatorDepth, rnic.attributes().maxQpInitRdAtom())));
    }

    /** The connection's QP (if it still exists and is the CM's to touch) goes to ERR. */
    void error(CmConnection c) {
        QpHandle qp = c.qpn != 0 ? nic.qp(c.qpn) : null;
        if (qp == null || qp.qp().state() == QpState.ERR || qp.qp().state() == QpState.RESET) {
            return;
        }
        try {
            modify(qp, new QpAttributes().state(QpState.ERR));
        } catch (RnicException e) {
            throw new IllegalStateException("every state may go to ERR, yet " + e.getMessage(), e);
        }
    }

    private void modify(QpHandle qp, QpAttributes a) throws RnicException {
        nic.modifyQp(qp, a);
    }
}
