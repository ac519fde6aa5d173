package io.jrxe.rnic.cm;

import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.engine.MadDropReason;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.wire.cm.CmAttribute;
import io.jrxe.wire.cm.ConnectedMessageFlyweight;
import io.jrxe.wire.cm.DrepFlyweight;
import io.jrxe.wire.cm.DreqFlyweight;
import io.jrxe.wire.cm.MraFlyweight;
import io.jrxe.wire.cm.RtuFlyweight;
import io.jrxe.wire.cm.SidrRepFlyweight;
import io.jrxe.wire.cm.SidrReqFlyweight;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.cm.RejFlyweight;
import io.jrxe.wire.cm.RejectReason;
import io.jrxe.wire.cm.RepFlyweight;
import io.jrxe.wire.cm.ReqFlyweight;
import io.jrxe.wire.cm.SidrStatus;
import io.jrxe.wire.port.PeerAddress;

import java.nio.ByteBuffer;

/**
 * The CM's half that reads: one handler per message, each checking the message against the
 * connection it names and the state that connection is in (IBTA 12.9.6), answering duplicates as
 * IBTA says (a REQ again in REP_SENT gets the REP again, a REP again in ESTABLISHED the RTU again,
 * a DREQ again in TIMEWAIT the DREP again), and dropping with a counted reason what fits nothing.
 */
final class CmReceiver extends CmFlyweights {
    /**
     * A SIDR_REQ carries no path: the passive side keeps its answer for the time-wait of a path
     * with this packet life time (4.096 µs × 2^13, 34 ms), long enough for the requester's retries.
     */
    private static final int SIDR_PACKET_LIFE_TIME = 13;
    private final ConnectionManager cm;

    CmReceiver(ConnectionManager cm) {
        this.cm = cm;
    }

    void mad(ByteBuffer mad, PeerAddress from) {
        MadHeaderFlyweight h = header.wrap(mad, 0);
        CmAttribute attribute = CmAttribute.of(h.attributeId());
        if (h.method() != MadHeaderFlyweight.METHOD_SEND || attribute == null) {
            cm.dropped(MadDropReason.UNKNOWN_ATTRIBUTE);
            return;
        }
        long tid = h.transactionId();
        int at = MadHeaderFlyweight.LENGTH;
        switch (attribute) {
            case REQ -> onReq(req.wrap(mad, at), tid, from);
            case REP -> onRep(rep.wrap(mad, at), from);
            case RTU -> onRtu(rtu.wrap(mad, at), from);
            case REJ -> onRej(rej.wrap(mad, at), from);
            case MRA -> onMra(mra.wrap(mad, at), from);
            case DREQ -> onDreq(dreq.wrap(mad, at), tid, from);
            case DREP -> onDrep(drep.wrap(mad, at), from);
            case SIDR_REQ -> onSidrReq(sidrReq.wrap(mad, at), tid, from);
            case SIDR_REP -> onSidrRep(sidrRep.wrap(mad, at), from);
            default -> cm.dropped(MadDropReason.UNKNOWN_ATTRIBUTE); // LAP, APR (no alternate paths), ClassPortInfo
        }
    }

    /** The connection a message names by its remote communication ID, if it is from that connection's peer. */
    private CmConnection named(ConnectedMessageFlyweight<?> m, PeerAddress from, boolean senderIdKnown) {
        CmConnection c = cm.connections.get(m.remoteCommId());
        if (c == null || !c.peer.sameIp(from) || (senderIdKnown && c.remoteCommId != m.localCommId())) {
            cm.dropped(MadDropReason.NO_CONNECTION);
            return null;
        }
        return c;
    }

    private void onReq(ReqFlyweight m, long tid, PeerAddress from) {
        CmConnection known = cm.passive.get(RemoteKey.of(from, m.localCommId()));
        if (known != null) {
            duplicateReq(known);
            return;
        }
        for (CmConnection c : cm.connections.values()) {
            if (!c.active && c.remoteQpn == m.localQpn() && c.peer.sameIp(from)
                    && (c.state == CmState.ESTABLISHED || c.wasEstablished)) {
                // The peer's QP asks again while this side still holds a connection to it (IBTA 12.9.8.3.1).
                refuse(tid, m.localCommId(), RejectReason.STALE_CONNECTION, from);
                return;
            }
        }
        CmEventSink listener = cm.listeners.get(m.serviceId());
        if (listener == null) {
            refuse(tid, m.localCommId(), RejectReason.INVALID_SERVICE_ID, from);
            return;
        }
        if (m.transportServiceType() != 0) {
            refuse(tid, m.localCommId(), RejectReason.INVALID_TRANSPORT_TYPE, from);
            return;
        }
        if (m.pathMtu() < 1 || m.pathMtu() > 5) {
            refuse(tid, m.localCommId(), RejectReason.INVALID_MTU, from);
            return;
        }
        CmConnection c = cm.newConnection(false, from, listener);
        c.remoteCommId = m.localCommId();
        c.transactionId = tid;
        c.serviceId = m.serviceId();
        c.remoteQpn = m.localQpn();
        c.remoteStartingPsn = m.startingPsn();
        c.pathMtu = Math.min(m.pathMtu(), cm.rnic.port().activeMtu().verbsValue());
        c.flowLabel = m.primaryFlowLabel();
        c.localAckTimeout = m.primaryLocalAckTimeout();
        c.retryCount = m.retryCount();
        c.rnrRetryCount = m.rnrRetryCount();
        c.packetLifeTime = Math.max(0, m.primaryLocalAckTimeout() - 1); // Linux's CM sends life time + 1
        c.peerResponseTimeout = m.localCmResponseTimeout();
        c.maxCmRetries = m.maxCmRetries();
        c.request = new ConnectionRequest(m.serviceId(), m.localQpn(), m.startingPsn(), m.responderResources(),
                m.initiatorDepth(), m.pathMtu(), m.retryCount(), m.rnrRetryCount(), m.transportServiceType());
        cm.passive.put(RemoteKey.of(from, c.remoteCommId), c);
        cm.enter(c, CmState.REQ_RCVD);
        cm.arm(c, CmTimers.nanos(m.remoteCmResponseTimeout()) / 2); // an MRA if the consumer is slow
        if (!cm.post(c, new CmEvent(CmEventType.CONNECT_REQUEST, c, 0, privateData(m), c.request, c.remoteQpn, 0))) {
            unanswered(c);
        }
    }

    /** A connection request its listener did not take (the listener is gone): refused as the consumer would. */
    private void unanswered(CmConnection c) {
        try {
            cm.reject(c, new byte[0]);
        } catch (RnicException e) {
            throw new IllegalStateException("a request that waits for its consumer can be refused, yet " + e.getMessage(), e);
        }
    }

    private void duplicateReq(CmConnection c) {
        switch (c.state) {
            case MRA_REQ_SENT, REP_SENT, MRA_REP_RCVD -> cm.send(c); // the MRA or REP again
            case TIMEWAIT -> {
                if (c.wasEstablished) {
                    refuse(c.transactionId, c.remoteCommId, RejectReason.STALE_CONNECTION, c.peer);
                } else {
                    cm.send(c); // the REJ again
                }
            }
            default -> cm.dropped(MadDropReason.DUPLICATE);
        }
    }

    /** A REJ for a REQ this side keeps no state for (its own communication ID 0). */
    private void refuse(long tid, int remoteCommId, RejectReason reason, PeerAddress to) {
        cm.messages.rej(cm.scratch, tid, 0, remoteCommId, CmMessages.MESSAGE_REQ, reason.code(), new byte[0]);
        cm.sendScratch(to);
    }

    private void onRep(RepFlyweight m, PeerAddress from) {
        CmConnection c = named(m, from, false);
        if (c == null) {
            return;
        }
        if (!c.active) {
            cm.dropped(MadDropReason.WRONG_STATE);
        } else if (c.state.awaitsReply()) {
            established(c, m);
        } else if (c.remoteCommId == m.localCommId() && c.state == CmState.ESTABLISHED) {
            cm.send(c); // the RTU again: ours was lost
        } else if (c.state == CmState.TIMEWAIT && !c.wasEstablished) {
            cm.send(c); // the REJ again: this side gave up
        } else {
            cm.dropped(MadDropReason.WRONG_STATE);
        }
    }

    private void established(CmConnection c, RepFlyweight m) {
        c.remoteCommId = m.localCommId();
        c.remoteQpn = m.localQpn();
        c.remoteStartingPsn = m.startingPsn();
        c.initiatorDepth = Math.min(c.initiatorDepth, m.responderResources());
        c.rnrRetryCount = m.rnrRetryCount();
        byte[] data = privateData(m);
        QpHandle qp = cm.qps.handle(c.qpn);
        try {
            if (qp == null) {
                throw RnicException.invalid("its QP was destroyed");
            }
            cm.qps.connect(qp, c);
        } catch (RnicException e) {
            cm.messages.rej(c.lastSent, c.transactionId, c.localCommId, c.remoteCommId, CmMessages.MESSAGE_REP,
                    RejectReason.NO_QP.code(), new byte[0]);
            cm.send(c);
            cm.qps.error(c);
            cm.enterTimewait(c);
            cm.post(c, CmEvent.of(CmEventType.CONNECT_ERROR, c, io.jrxe.verbs.Errno.EINVAL.value(), data));
            return;
        }
        cm.messages.rtu(c);
        cm.enter(c, CmState.ESTABLISHED);
        c.wasEstablished = true;
        cm.send(c);
        cm.post(c, CmEvent.of(CmEventType.ESTABLISHED, c, 0, data));
    }

    private void onRtu(RtuFlyweight m, PeerAddress from) {
        CmConnection c = named(m, from, true);
        if (c == null) {
            return;
        }
        if (!c.active && c.state.awaitsRtu()) {
            cm.enter(c, CmState.ESTABLISHED);
            c.wasEstablished = true;
            cm.post(c, CmEvent.of(CmEventType.ESTABLISHED, c, 0, privateData(m)));
        } else {
            cm.dropped(c.state == CmState.ESTABLISHED ? MadDropReason.DUPLICATE : MadDropReason.WRONG_STATE);
        }
    }

    private void onRej(RejFlyweight m, PeerAddress from) {
        CmConnection c = m.remoteCommId() == 0
                // The active side gave up before it learnt this side's ID: it names the REQ by its own.
                ? cm.passive.get(RemoteKey.of(from, m.localCommId()))
                : named(m, from, false);
        if (c == null) {
            if (m.remoteCommId() == 0) {
                cm.dropped(MadDropReason.NO_CONNECTION);
            }
            return;
        }
        if (c.remoteCommId != 0 && m.localCommId() != 0 && m.localCommId() != c.remoteCommId) {
            cm.dropped(MadDropReason.NO_CONNECTION);
            return;
        }
        int reason = m.reason();
        byte[] data = privateData(m);
        if (c.state.awaitsReply() || c.state.awaitsConsumer()) {
            cm.qps.error(c);
            cm.close(c); // nothing of this connection is in flight: no time-wait
            cm.post(c, CmEvent.of(CmEventType.REJECTED, c, reason, data));
        } else if (c.state.awaitsRtu()) {
            cm.qps.error(c);
            cm.enterTimewait(c);
            cm.post(c, CmEvent.of(CmEventType.REJECTED, c, reason, data));
        } else if (c.state == CmState.ESTABLISHED && (reason == RejectReason.TIMEOUT.code()
                || reason == RejectReason.STALE_CONNECTION.code())) {
            // The peer gave up on a connection this side thinks is up (every RTU was lost): end it here too.
            cm.qps.error(c);
            cm.enterTimewait(c);
            cm.post(c, CmEvent.of(CmEventType.DISCONNECTED, c, reason, data));
        } else {
            cm.dropped(MadDropReason.WRONG_STATE);
        }
    }

    private void onMra(MraFlyweight m, PeerAddress from) {
        CmConnection c = named(m, from, false);
        if (c == null) {
            return;
        }
        if (m.messageMraed() == CmMessages.MESSAGE_REQ && c.active && c.state == CmState.REQ_SENT) {
            c.remoteCommId = m.localCommId();
            cm.enter(c, CmState.MRA_REQ_RCVD);
            cm.arm(c, CmTimers.responseWait(m.serviceTimeout(), c.packetLifeTime));
        } else if (m.messageMraed() == CmMessages.MESSAGE_REP && !c.active && c.state == CmState.REP_SENT
                && m.localCommId() == c.remoteCommId) {
            cm.enter(c, CmState.MRA_REP_RCVD);
            cm.arm(c, CmTimers.responseWait(m.serviceTimeout(), c.packetLifeTime));
        } else {
            cm.dropped(MadDropReason.WRONG_STATE);
        }
    }

    private void onDreq(DreqFlyweight m, long tid, PeerAddress from) {
        CmConnection c = cm.connections.get(m.remoteCommId());
        if (c == null) {
            // Time-wait is over here but the peer did not get our DREP: answer without state, as Linux's CM
            // does, so that the peer's disconnect ends with its DREP rather than in a timeout.
            cm.messages.drep(cm.scratch, tid, m.remoteCommId(), m.localCommId());
            cm.sendScratch(from);
            return;
        }
        c = named(m, from, true);
        if (c == null) {
            return;
        }
        if (m.remoteQpn() != c.qpn) {
            cm.dropped(MadDropReason.NO_CONNECTION);
            return;
        }
        byte[] data = privateData(m);
        switch (c.state) {
            case ESTABLISHED, REP_SENT, MRA_REP_RCVD, DREQ_SENT -> {
                boolean sawRtu = c.state == CmState.ESTABLISHED || c.state == CmState.DREQ_SENT;
                cm.qps.error(c);
                cm.enter(c, CmState.DREQ_RCVD);
                cm.messages.drep(c.lastSent, tid, c.localCommId, c.remoteCommId);
                c.hasLastSent = true;
                cm.send(c);
                c.wasEstablished = true;
                cm.enterTimewait(c);
                if (!sawRtu) {
                    cm.post(c, CmEvent.of(CmEventType.ESTABLISHED, c, 0, new byte[0])); // the RTU was lost; the DREQ proves it
                }
                cm.post(c, CmEvent.of(CmEventType.DISCONNECTED, c, 0, data));
            }
            case TIMEWAIT -> {
                cm.messages.drep(c.lastSent, tid, c.localCommId, c.remoteCommId);
                c.hasLastSent = true; // our DREP was lost
                cm.send(c);
            }
            default -> cm.dropped(MadDropReason.WRONG_STATE);
        }
    }

    private void onDrep(DrepFlyweight m, PeerAddress from) {
        CmConnection c = named(m, from, true);
        if (c == null) {
            return;
        }
        if (c.state == CmState.DREQ_SENT) {
            cm.enterTimewait(c);
            cm.post(c, CmEvent.of(CmEventType.DISCONNECTED, c, 0, privateData(m)));
        } else {
            cm.dropped(c.state == CmState.TIMEWAIT ? MadDropReason.DUPLICATE : MadDropReason.WRONG_STATE);
        }
    }

    /**
     * A SIDR request goes to the service's listener as CONNECT_REQUEST; one for a service nobody
     * listens on is answered at once, without state. The same request again is dropped while its
     * consumer decides, and answered again from the kept reply afterwards.
     */
    private void onSidrReq(SidrReqFlyweight m, long tid, PeerAddress from) {
        CmConnection known = cm.passive.get(RemoteKey.of(from, m.requestId()));
        if (known != null) {
            if (known.state == CmState.TIMEWAIT) {
                cm.send(known);
            } else {
                cm.dropped(MadDropReason.DUPLICATE);
            }
            return;
        }
        CmEventSink listener = cm.listeners.get(m.serviceId());
        if (listener == null) {
            cm.messages.sidrRep(cm.scratch, tid, m.requestId(), SidrStatus.SERVICE_ID_NOT_SUPPORTED.code(), 0,
                    m.serviceId(), 0, new byte[0]);
            cm.sendScratch(from);
            return;
        }
        CmConnection c = cm.newConnection(false, from, listener);
        c.remoteCommId = m.requestId();
        c.transactionId = tid;
        c.serviceId = m.serviceId();
        c.packetLifeTime = SIDR_PACKET_LIFE_TIME;
        c.localAckTimeout = SIDR_PACKET_LIFE_TIME + 1;
        cm.passive.put(RemoteKey.of(from, c.remoteCommId), c);
        cm.enter(c, CmState.SIDR_REQ_RCVD);
        if (!cm.post(c, new CmEvent(CmEventType.CONNECT_REQUEST, c, 0, privateData(m), null, 0, 0))) {
            unanswered(c);
        }
    }

    private void onSidrRep(SidrRepFlyweight m, PeerAddress from) {
        CmConnection c = cm.connections.get(m.requestId());
        if (c == null || !c.peer.sameIp(from) || c.state != CmState.SIDR_REQ_SENT) {
            cm.dropped(c == null || !c.peer.sameIp(from) ? MadDropReason.NO_CONNECTION : MadDropReason.DUPLICATE);
            return;
        }
        cm.close(c);
        if (m.status() == SidrStatus.VALID.code()) {
            cm.post(c, new CmEvent(CmEventType.ESTABLISHED, c, 0, privateData(m), null, m.qpn(), m.qkey()));
        } else {
            cm.post(c, new CmEvent(CmEventType.UNREACHABLE, c, m.status(), privateData(m), null, 0, 0));
        }
    }

    private static byte[] privateData(io.jrxe.wire.cm.CmMessageFlyweight<?> m) {
        byte[] data = new byte[m.privateDataLength()];
        m.getPrivateData(data, 0);
        return data;
    }
}
