package io.jrxe.verbs.emulated;

import io.jrxe.rnic.cm.ConnectionRequest;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.DatagramParameters;
import io.jrxe.verbs.cm.PortSpace;
import io.jrxe.wire.port.PeerAddress;

import java.net.InetAddress;

/**
 * The CM engine's events in librdmacm's terms: the same type names, a status as the kernel's
 * rdma_cm reports it (a negative errno, or a REJ reason or SIDR status as it came), and the
 * parameters seen from this side, as the kernel turns a REQ's fields around (the peer's initiator
 * depth is this side's responder resources).
 */
final class CmEventTranslation {
    /** The RoCE v2 GID of a jrxe device's first address: where its address vectors come from. */
    static final int ROCE_V2_GID_INDEX = 1;

    private CmEventTranslation() {
    }

    /** The engine's positive errno (ETIMEDOUT) as librdmacm's negative one; reasons and statuses as they are. */
    static int status(io.jrxe.rnic.cm.CmEvent e) {
        return e.status() == io.jrxe.rnic.cm.CmEvent.ETIMEDOUT ? -e.status() : e.status();
    }

    /** What a REQ asked, from the passive side: its initiator depth is what this side must take in. */
    static ConnectionParameters request(ConnectionRequest r, byte[] consumerData) {
        return new ConnectionParameters(consumerData, r.initiatorDepth(), r.responderResources(), 0, r.retryCount(),
                r.rnrRetryCount(), false, r.remoteQpn());
    }

    /** The parameters of any later event of a connection: the message's private data and the peer's QP. */
    static ConnectionParameters connection(byte[] privateData, int remoteQpn) {
        return new ConnectionParameters(privateData, 0, 0, 0, 0, 0, false, remoteQpn);
    }

    /** Where a UD peer at {@code peer} is: its GID by this device's RoCE v2 GID, its QP and Q_Key. */
    static DatagramParameters datagram(byte[] privateData, InetAddress peer, int qpn, int qkey) {
        return new DatagramParameters(privateData, AddressVector.to(PeerAddress.of(peer).gid(), ROCE_V2_GID_INDEX),
                qpn, qkey);
    }

    /** An event of the engine for an established or ending connection of {@code id}, in the API's terms. */
    static CmEvent translate(io.jrxe.rnic.cm.CmEvent e, EmulatedCmId id, PortSpace space, InetAddress peer) {
        CmEventType type = e.type();
        byte[] data = e.privateData();
        if (space == PortSpace.UDP) {
            DatagramParameters ud = type == CmEventType.ESTABLISHED
                    ? datagram(data, peer, e.remoteQpn(), e.remoteQkey())
                    : new DatagramParameters(data, null, 0, 0);
            return new CmEvent(type, id, null, status(e), null, ud);
        }
        return new CmEvent(type, id, null, status(e), connection(data, e.remoteQpn()), null);
    }
}
