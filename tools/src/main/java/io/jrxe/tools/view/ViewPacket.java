package io.jrxe.tools.view;

import io.jrxe.wire.dissect.DissectedPacket;

/**
 * One packet as the ladder draws it: its dissection, when and where it was captured, and, when a
 * capture holds it more than once (jrxe writes a packet as sent by one port and again as received
 * or dropped by the other), when and where it arrived and why it was dropped. Filled in while the
 * capture is read, then read-only.
 */
final class ViewPacket {
    final int index;
    final DissectedPacket packet;
    final long sentNanos;
    /** The pcapng interface that captured it first (-1 in a classic pcap) and its name (or null). */
    final int capturedIface;
    final String capturedOn;
    long arrivedNanos = -1;
    int arrivedIface = -1;
    String arrivedOn;
    /** The capture's comments that are not a drop, or null. */
    String comment;
    /** Why a receiver dropped it (from jrxe's "dropped: ..." comment), or null. */
    String dropReason;
    /** Never seen at a receiver whose arrivals the capture records, though later packets to it were. */
    boolean lost;

    ViewPacket(int index, DissectedPacket packet, long sentNanos, int capturedIface, String capturedOn) {
        this.index = index;
        this.packet = packet;
        this.sentNanos = sentNanos;
        this.capturedIface = capturedIface;
        this.capturedOn = capturedOn;
    }

    boolean arrived() {
        return arrivedNanos >= 0;
    }

    void addComment(String text) {
        comment = comment == null ? text : comment + "; " + text;
    }
}
