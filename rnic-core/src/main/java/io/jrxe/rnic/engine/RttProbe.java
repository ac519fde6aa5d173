package io.jrxe.rnic.engine;

import io.jrxe.wire.psn.Psn;

/**
 * One QP's round-trip measurement: the PSN of a new packet that asked for an ACK and when it went
 * (the NIC's clock), until an answer covers it. One at a time, so a QP gives about one sample per
 * round trip. The requester starts it; the completer ends it with the sample; a go-back-N drops it,
 * since an answer after a resend could be to either copy (Karn's rule). Primitive fields: nothing
 * is allocated per packet.
 */
final class RttProbe {
    private boolean pending;
    private int psn;
    private long sentAt;

    /** Whether no packet is being timed: the requester times its next new packet that asks for an ACK. */
    boolean idle() {
        return !pending;
    }

    /** A new packet asking for an ACK went at {@code now}: it is timed until an answer covers it. */
    void start(int packetPsn, long now) {
        pending = true;
        psn = packetPsn;
        sentAt = now;
    }

    /** Whether the peer having every packet before {@code nextPsn} answers the timed packet. */
    boolean answeredBy(int nextPsn) {
        return pending && Psn.before(psn, nextPsn);
    }

    /** The timed packet was answered at {@code now}: its round trip; the next new packet asking for an ACK is timed. */
    long end(long now) {
        pending = false;
        return now - sentAt;
    }

    /** The QP went back or was reset: what is in flight may be sent again, so nothing timed counts. */
    void drop() {
        pending = false;
    }
}
