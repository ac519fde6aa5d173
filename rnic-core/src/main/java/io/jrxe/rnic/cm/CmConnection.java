package io.jrxe.rnic.cm;

import io.jrxe.wire.port.PeerAddress;

/**
 * One communication of the CM, active or passive: its state, both communication IDs, the QP it
 * connects and what the exchange carried. The application holds it as a handle (to accept,
 * reject or disconnect); the CM alone changes it, on the NIC thread.
 */
public final class CmConnection {
    final int localCommId;
    final boolean active;
    final PeerAddress peer;
    final CmEventSink events;
    volatile CmState state = CmState.IDLE;
    int remoteCommId;
    long transactionId;
    long serviceId;
    int qpn;
    int remoteQpn;
    /** The PSN this side expects to receive first: the starting PSN of its own REQ or REP (as Linux reads the field). */
    int localStartingPsn;
    /** The peer's starting PSN: where this side's sends start. */
    int remoteStartingPsn;
    int pathMtu;
    int flowLabel;
    int localAckTimeout;
    int retryCount;
    int rnrRetryCount;
    int responderResources;
    int initiatorDepth;
    int packetLifeTime;
    /** Exponent of how long the peer may take to answer this side's REQ, REP or DREQ. */
    int peerResponseTimeout;
    int maxCmRetries;
    int retries;
    /** Bumped whenever a timer is armed or the state changes; a timer that finds another value is stale. */
    int timerGeneration;
    boolean wasEstablished;
    /** The last message this side sent, kept to send again (a retry, or the answer to a duplicate). */
    final byte[] lastSent = new byte[256];
    boolean hasLastSent;
    /** Passive side: what the REQ asked for. */
    ConnectionRequest request;

    CmConnection(int localCommId, boolean active, PeerAddress peer, CmEventSink events) {
        this.localCommId = localCommId;
        this.active = active;
        this.peer = peer;
        this.events = events;
    }

    public CmState state() {
        return state;
    }

    public int localCommId() {
        return localCommId;
    }

    public int remoteCommId() {
        return remoteCommId;
    }

    public boolean active() {
        return active;
    }

    public PeerAddress peer() {
        return peer;
    }

    /** The local QP this communication connects (0 for SIDR). */
    public int qpn() {
        return qpn;
    }

    /** The peer's QP, once the exchange has told it. */
    public int remoteQpn() {
        return remoteQpn;
    }

    public long serviceId() {
        return serviceId;
    }

    @Override
    public String toString() {
        return String.format("%s communication 0x%08x with %s (%s)", active ? "active" : "passive", localCommId, peer, state);
    }
}
