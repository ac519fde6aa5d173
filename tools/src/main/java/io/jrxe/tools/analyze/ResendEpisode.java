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
    /** Times the requester went back to {@link #firstPsn} for the same cause: RNR NAKs of one run, ACK timeouts. */
    int rounds = 1;
    /** When the latest round began. */
    long lastRoundTime;
    /** The shortest and longest wait of its rounds. */
    long shortestWait;
    long longestWait;
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
        this.lastRoundTime = time;
        this.shortestWait = cause.waited();
        this.longestWait = cause.waited();
    }

    /** Whether a resend of {@code psn} goes on from this one: a later PSN, with no new cause since it began. */
    boolean goesOnWith(int psn, long latestCauseTime) {
        return Psn.after(psn, lastPsn) && latestCauseTime <= lastRoundTime;
    }

    /**
     * Whether a resend of {@code psn} for {@code next} is one more round of this episode: the same PSN sent again for
     * the same reason, as a requester does after each RNR NAK until the responder has a receive posted, or after each
     * ACK timeout until its retries run out.
     */
    boolean anotherRound(int psn, ResendCause next) {
        return psn == firstPsn && cause.kind() == next.kind()
                && (next.kind() == ResendCause.Kind.RNR_NAK || next.kind() == ResendCause.Kind.ACK_TIMEOUT);
    }

    void round(int psn, long frame, long time, long waited) {
        rounds++;
        shortestWait = Math.min(shortestWait, waited);
        longestWait = Math.max(longestWait, waited);
        lastRoundTime = time;
        lastPsn = psn;
        lastFrame = frame;
        packets++;
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
