package io.jrxe.tools.analyze;

import io.jrxe.wire.psn.Psn;

/**
 * One run of retransmissions by a requester: the PSNs it sent again one after another (go-back-N from
 * the first), from the first resent packet until a new request or another cause starts something else,
 * and why it began.
 */
final class ResendEpisode {
    final int firstPsn;
    final long firstFrame;
    final long firstTime;
    final ResendCause cause;
    int lastPsn;
    long lastFrame;
    long packets;
    /** Words about READs asked again within it, or null. */
    String readsAskedAgain;

    ResendEpisode(int psn, long frame, long time, ResendCause cause) {
        this.firstPsn = psn;
        this.firstFrame = frame;
        this.firstTime = time;
        this.cause = cause;
        this.lastPsn = psn;
        this.lastFrame = frame;
        this.packets = 1;
    }

    /** Whether a resend of {@code psn} goes on from this one: a later PSN, with no new cause since it began. */
    boolean goesOnWith(int psn, long latestCauseTime) {
        return Psn.after(psn, lastPsn) && latestCauseTime <= firstTime;
    }

    void add(int psn, long frame) {
        lastPsn = psn;
        lastFrame = frame;
        packets++;
    }

    void readAskedAgain(String words) {
        readsAskedAgain = readsAskedAgain == null ? words : readsAskedAgain + "; " + words;
    }
}
