package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.WorkCompletion;

import java.util.function.Consumer;

/**
 * The poll loops of ucmatose and udaddy: take completions from a CQ, 8 at a time, until as many as expected have
 * come, whatever their status. The real programs spin without end; this one parks between empty polls (the NIC
 * is a thread of this machine too) and gives up when nothing completes for a stall limit.
 */
final class CqDrain {
    private final BackoffIdle idle = new BackoffIdle();
    private final WorkCompletion[] wcs = new WorkCompletion[8];

    CqDrain() {
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /**
     * Polls {@code cq} until {@code wanted} completions came, each handed to {@code each}; returns how many came,
     * fewer than wanted when {@code stallNanos} passed without one.
     */
    int take(Cq cq, int wanted, long stallNanos, Consumer<WorkCompletion> each) {
        int done = 0;
        long last = System.nanoTime();
        int looks = 0;
        while (done < wanted) {
            int n = cq.poll(wcs);
            if (n > 0) {
                for (int i = 0; i < n; i++) {
                    each.accept(wcs[i]);
                }
                done += n;
                last = System.nanoTime();
                looks = 0;
            } else if (idle.idle(++looks, last, stallNanos)) {
                return done;
            }
        }
        return done;
    }
}
