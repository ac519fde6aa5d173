package io.jrxe.tools.analyze;

import io.jrxe.wire.psn.Psn;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The READ and atomic requests of one requester whose answers the analysis still follows, oldest first;
 * the oldest are forgotten past {@link #LARGEST}.
 */
final class ReadsAndAtomics {
    private static final int LARGEST = 1024;
    private final ArrayDeque<ReadOrAtomic> recent = new ArrayDeque<>();

    void add(ReadOrAtomic r) {
        if (recent.size() == LARGEST) {
            recent.removeFirst();
        }
        recent.addLast(r);
    }

    /** The latest request whose PSN range covers response PSN {@code psn}, or null. */
    ReadOrAtomic covering(int psn) {
        for (Iterator<ReadOrAtomic> it = recent.descendingIterator(); it.hasNext(); ) {
            ReadOrAtomic r = it.next();
            if (r.covers(psn)) {
                return r;
            }
            if (Psn.before(r.psn, psn) && r.span == 0) {
                return null;
            }
        }
        return null;
    }

    /** The request that starts at {@code psn}, or null. */
    ReadOrAtomic at(int psn) {
        for (Iterator<ReadOrAtomic> it = recent.descendingIterator(); it.hasNext(); ) {
            ReadOrAtomic r = it.next();
            if (r.psn == psn) {
                return r;
            }
        }
        return null;
    }

    /** The oldest request before {@code psn} not answered yet, or null. */
    ReadOrAtomic unansweredBefore(int psn) {
        for (ReadOrAtomic r : recent) {
            if (!Psn.before(r.psn, psn)) {
                return null;
            }
            if (!r.answered) {
                return r;
            }
        }
        return null;
    }

    /** The path MTU became known: every request's span follows from its length. */
    void spans(int pmtu) {
        for (ReadOrAtomic r : recent) {
            if (r.span == 0) {
                r.span = r.atomic ? 1 : Spans.of(r.length, pmtu);
            }
        }
    }

    /** Everything up to {@code ackedThrough} was answered (an ACK of a later request says so). */
    void answeredThrough(int ackedThrough) {
        for (ReadOrAtomic r : recent) {
            if (Psn.after(r.psn, ackedThrough)) {
                return;
            }
            r.answered = true;
        }
    }
}
