package io.jrxe.rnic.cm;

import io.jrxe.verbs.Mtu;
import io.jrxe.wire.port.PeerAddress;

/**
 * What the active side asks for in its REQ: the peer and service, its QP, the resources and retry
 * counts of the connection, and the CM's own timeouts. The defaults are librdmacm's: retry 7,
 * RNR retry 7, CM response timeout 20 (4.096 µs × 2^20, 4.3 s), 15 CM retries.
 */
public final class ConnectParams {
    final PeerAddress remote;
    final long serviceId;
    final int qpn;
    byte[] privateData = new byte[0];
    int responderResources = 1;
    int initiatorDepth = 1;
    int retryCount = 7;
    int rnrRetryCount = 7;
    int cmResponseTimeout = 20;
    int maxCmRetries = 15;
    int localAckTimeout = 14;
    int packetLifeTime = 13;
    Mtu pathMtu = Mtu.MTU_1024;
    int flowLabel;

    /** A REQ from QP {@code qpn} (RC, in RESET or INIT) to the service {@code serviceId} of the node at {@code remote}. */
    public ConnectParams(PeerAddress remote, long serviceId, int qpn) {
        this.remote = remote;
        this.serviceId = serviceId;
        this.qpn = qpn;
    }

    /** Up to 92 bytes for the passive side's consumer. */
    public ConnectParams privateData(byte[] v) { privateData = v.clone(); return this; }
    public ConnectParams responderResources(int v) { responderResources = check(v, 0, 255, "responder resources"); return this; }
    public ConnectParams initiatorDepth(int v) { initiatorDepth = check(v, 0, 255, "initiator depth"); return this; }
    public ConnectParams retryCount(int v) { retryCount = check(v, 0, 7, "retry count"); return this; }
    public ConnectParams rnrRetryCount(int v) { rnrRetryCount = check(v, 0, 7, "RNR retry count"); return this; }
    /** The exponent t of both CM response timeouts, 4.096 µs × 2^t: how long each side may take to answer. */
    public ConnectParams cmResponseTimeout(int v) { cmResponseTimeout = check(v, 0, 31, "CM response timeout"); return this; }
    /** How often a REQ, REP or DREQ is sent again when its answer does not come (0..15). */
    public ConnectParams maxCmRetries(int v) { maxCmRetries = check(v, 0, 15, "max CM retries"); return this; }
    public ConnectParams localAckTimeout(int v) { localAckTimeout = check(v, 0, 31, "local ACK timeout"); return this; }
    /** The path's packet life time exponent: two of them are added to every CM wait, one round trip. */
    public ConnectParams packetLifeTime(int v) { packetLifeTime = check(v, 0, 31, "packet life time"); return this; }
    public ConnectParams pathMtu(Mtu v) { pathMtu = v; return this; }
    /** The connection's flow label (20 bits; its QPs send from the UDP port it gives); 0 lets the CM choose. */
    public ConnectParams flowLabel(int v) { flowLabel = check(v, 0, 0xFFFFF, "flow label"); return this; }

    static int check(int v, int min, int max, String what) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(what + " " + v + " is out of range " + min + ".." + max);
        }
        return v;
    }
}
