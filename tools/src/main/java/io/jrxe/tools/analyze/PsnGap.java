package io.jrxe.tools.analyze;

import io.jrxe.wire.psn.Psn;

/**
 * A run of request PSNs that the capture skipped: a later PSN was seen first, so these were lost before
 * the capture point (or are late). Each PSN of it ends one of three ways: seen later as a resend, seen
 * later as a late arrival (reordered on the way), or acknowledged by the responder without ever being
 * seen (the capture, not the network, missed it); the rest are still missing at the end.
 */
final class PsnGap {
    /** Gaps longer than this are tracked by count only, not PSN by PSN. */
    private static final int LARGEST_TRACKED = 4096;

    final int from;
    final int length;
    final long openedFrame;
    final long openedTime;
    /** The IPv4 identification of the packet that showed the gap, or -1. */
    final int revealIpId;
    private final long[] seen;
    int resent;
    int reordered;
    int acknowledgedUnseen;
    /** PSNs that turned out to be a READ's response PSNs, not packets of their own. */
    int readSpan;
    long firstResentFrame = -1;
    long firstResentTime;
    long lastResentFrame = -1;

    PsnGap(int from, int length, long openedFrame, long openedTime, int revealIpId) {
        this.from = from;
        this.length = length;
        this.openedFrame = openedFrame;
        this.openedTime = openedTime;
        this.revealIpId = revealIpId;
        this.seen = length <= LARGEST_TRACKED ? new long[(length + 63) >>> 6] : null;
    }

    int last() {
        return Psn.add(from, length - 1);
    }

    boolean covers(int psn) {
        return Psn.distance(from, psn) < length;
    }

    /** Whether {@code psn}, which this gap covers, is still missing. */
    boolean missing(int psn) {
        if (seen == null) {
            return closed() < length;
        }
        int k = Psn.distance(from, psn);
        return (seen[k >>> 6] & (1L << k)) == 0;
    }

    private void take(int psn) {
        if (seen != null) {
            int k = Psn.distance(from, psn);
            seen[k >>> 6] |= 1L << k;
        }
    }

    void resent(int psn, long frame, long time) {
        take(psn);
        resent++;
        if (firstResentFrame < 0) {
            firstResentFrame = frame;
            firstResentTime = time;
        }
        lastResentFrame = frame;
    }

    /**
     * The {@code count} PSNs after {@code requestPsn} (a READ request of this gap) belong to its response: no packet was
     * missing there. Only the PSNs this gap covers count, so a READ claiming a huge length costs no more than the gap.
     */
    void readResponse(int requestPsn, int count) {
        int first = Psn.distance(from, requestPsn) + 1;
        int end = (int) Math.min((long) first + count, length);
        if (seen == null) {
            readSpan += Math.max(0, Math.min(end - first, length - closed()));
            return;
        }
        for (int k = first; k < end; k++) {
            if ((seen[k >>> 6] & (1L << k)) == 0) {
                seen[k >>> 6] |= 1L << k;
                readSpan++;
            }
        }
    }

    /** PSNs of the gap that stood for packets (not for a READ's response). */
    int packets() {
        return length - readSpan;
    }

    void reordered(int psn) {
        take(psn);
        reordered++;
    }

    /** Marks every missing PSN up to {@code ackedThrough} as acknowledged without being seen. */
    void acknowledgedThrough(int ackedThrough) {
        int upTo = Psn.distance(from, ackedThrough);
        if (upTo >= length) {
            upTo = length - 1;
        }
        if (seen == null) {
            acknowledgedUnseen = Math.max(acknowledgedUnseen, upTo + 1 - resent - reordered - readSpan);
            return;
        }
        for (int k = 0; k <= upTo; k++) {
            if ((seen[k >>> 6] & (1L << k)) == 0) {
                seen[k >>> 6] |= 1L << k;
                acknowledgedUnseen++;
            }
        }
    }

    int closed() {
        return resent + reordered + acknowledgedUnseen + readSpan;
    }

    boolean done() {
        return closed() >= length;
    }
}
