package io.jrxe.tools.analyze;

import io.jrxe.wire.psn.Psn;

/**
 * A READ or atomic request and what the capture showed of its answer: the response PSNs seen so far, the
 * atomic's original value, and whether the requester asked for it again (after which a second answer is
 * the responder's replay, not a network's copy).
 */
final class ReadOrAtomic {
    final int psn;
    final boolean atomic;
    final long length;
    final long frame;
    /** PSNs its responses take, or 0 while the path MTU is unknown. */
    int span;
    /** The response PSN expected next. */
    int nextResponse;
    boolean answered;
    boolean askedAgain;
    /** An atomic's original value, once its ATOMIC ACKNOWLEDGE came ({@link #valueSeen}). */
    long atomicValue;
    boolean valueSeen;
    /** The response PSN a replay that goes on would have next (a replay from elsewhere is another one). */
    int replayNext = -1;
    /** The latest response to it the capture showed, or -1. */
    long lastResponseFrame = -1;
    long lastResponseTime;
    /** Response PSNs the capture skipped, still missing: from {@code missingFrom}, {@code missingCount} of them. */
    int missingFrom;
    int missingCount;

    ReadOrAtomic(int psn, boolean atomic, long length, long frame, int span) {
        this.psn = psn;
        this.atomic = atomic;
        this.length = length;
        this.frame = frame;
        this.span = span;
        this.nextResponse = psn;
    }

    /** Whether response PSN {@code p} belongs to it (while its span is unknown: any PSN from its own on). */
    boolean covers(int p) {
        return span > 0 ? Psn.inWindow(p, psn, span) : !Psn.before(p, psn);
    }

    /** The response PSNs from {@code from} up to (not including) {@code to} were skipped. */
    void skipped(int from, int to) {
        if (missingCount == 0) {
            missingFrom = from;
        }
        missingCount = Psn.distance(missingFrom, to);
    }

    /** Whether response PSN {@code p} is one the capture skipped; if so it is taken off the missing ones. */
    boolean fills(int p) {
        if (missingCount == 0 || !Psn.inWindow(p, missingFrom, missingCount)) {
            return false;
        }
        if (p == missingFrom) {
            missingFrom = Psn.next(missingFrom);
            missingCount--;
        }
        return true;
    }

    int lastPsn() {
        return Psn.add(psn, Math.max(span, 1) - 1);
    }
}
