package io.jrxe.verbs.cm;

/**
 * One connection-manager event (librdmacm's rdma_cm_event), already acknowledged: its fields are
 * copies, so holding it holds nothing of the provider's.
 *
 * @param type       what happened
 * @param id         the identifier it is about; for CONNECT_REQUEST a new one, made for the request
 * @param listenId   for CONNECT_REQUEST, the listening identifier the request came to; else null
 * @param status     0, a negative errno (-110 ETIMEDOUT), or for REJECTED the REJ's reason (8: nobody listens)
 * @param connection for the TCP port space, what the peer's message carried; else null
 * @param datagram   for the UDP port space, the peer's QP and address; else null
 */
public record CmEvent(CmEventType type, CmId id, CmId listenId, int status, ConnectionParameters connection,
                      DatagramParameters datagram) {
    /** The peer's private data from whichever parameters the event has, or none. */
    public byte[] privateData() {
        if (connection != null) {
            return connection.privateData();
        }
        return datagram != null ? datagram.privateData() : new byte[0];
    }

    /** As rping prints an unexpected one: {@code RDMA_CM_EVENT_REJECTED, error 8}. */
    @Override
    public String toString() {
        return type.librdmacmName() + (status != 0 ? ", error " + status : "");
    }
}
