package io.jrxe.rnic.cm;

import io.jrxe.verbs.cm.CmEventType;

/**
 * One CM event, as the application polls it from its {@link CmEventQueue}.
 *
 * @param type        what happened
 * @param connection  the communication it is about (for CONNECT_REQUEST a new one, to accept or reject)
 * @param status      0, an errno ({@link #ETIMEDOUT}), a REJ reason code (REJECTED) or a SIDR status
 * @param privateData the private data field of the message that caused it (its whole field), or empty
 * @param request     for CONNECT_REQUEST, what the REQ asked for; else null
 * @param remoteQpn   for a SIDR resolution, the QPN that serves the service; else the peer's QPN or 0
 * @param remoteQkey  for a SIDR resolution, that QP's Q_Key; else 0
 */
public record CmEvent(CmEventType type, CmConnection connection, int status, byte[] privateData,
                      ConnectionRequest request, int remoteQpn, int remoteQkey) {
    /** Linux's ETIMEDOUT: the peer did not answer within the timeouts and retries. */
    public static final int ETIMEDOUT = 110;
    /** Linux's ECONNREFUSED. */
    public static final int ECONNREFUSED = 111;

    static CmEvent of(CmEventType type, CmConnection c, int status, byte[] privateData) {
        return new CmEvent(type, c, status, privateData, null, c.remoteQpn, 0);
    }

    @Override
    public String toString() {
        return type + (status != 0 ? " status " + status : "") + " on " + connection;
    }
}
