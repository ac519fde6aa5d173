package io.jrxe.tools.analyze;

import io.jrxe.wire.psn.Psn;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The open {@link PsnGap}s of one requester, oldest first. A gap leaves the list once each of its PSNs has
 * been accounted for, or when more than {@link #LARGEST} are open (the oldest goes first), and is then
 * handed to the reporter.
 */
final class PsnGaps {
    private static final int LARGEST = 1024;

    private final List<PsnGap> open = new ArrayList<>();
    private final Consumer<PsnGap> closed;

    PsnGaps(Consumer<PsnGap> closed) {
        this.closed = closed;
    }

    void open(PsnGap gap) {
        if (open.size() == LARGEST) {
            closed.accept(open.removeFirst());
        }
        open.add(gap);
    }

    boolean isEmpty() {
        return open.isEmpty();
    }

    /** The open gap in which {@code psn} is still missing, or null. */
    PsnGap missing(int psn) {
        for (int i = open.size() - 1; i >= 0; i--) {
            PsnGap g = open.get(i);
            if (g.covers(psn)) {
                return g.missing(psn) ? g : null;
            }
        }
        return null;
    }

    /** Closes the gap once nothing of it is missing. */
    void settle(PsnGap gap) {
        if (gap.done() && open.remove(gap)) {
            closed.accept(gap);
        }
    }

    /** The responder acknowledged every PSN up to {@code ackedThrough}: what the capture never showed of those it missed. */
    void acknowledged(int ackedThrough) {
        for (int i = 0; i < open.size(); i++) {
            PsnGap g = open.get(i);
            if (!Psn.after(g.from, ackedThrough)) {
                g.acknowledgedThrough(ackedThrough);
                if (g.done()) {
                    open.remove(i--);
                    closed.accept(g);
                }
            }
        }
    }

    /** At the end of the capture: every gap still open is reported as it stands. */
    void closeAll() {
        for (PsnGap g : open) {
            closed.accept(g);
        }
        open.clear();
    }
}
