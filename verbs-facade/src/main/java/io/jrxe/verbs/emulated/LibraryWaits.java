package io.jrxe.verbs.emulated;

import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.idle.LatencyIdle;

import java.util.concurrent.TimeUnit;

/** The warm-up's own waits: a latency poll of the CQ, and a completion channel's event; 5 s at most each. */
final class LibraryWaits implements Warmup.Waits {
    static final LibraryWaits INSTANCE = new LibraryWaits();
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    @Override
    public int polled(Cq cq, WorkCompletion[] wcs) {
        LatencyIdle idle = new LatencyIdle();
        long start = System.nanoTime();
        int n;
        for (int looks = 1; (n = cq.poll(wcs)) == 0; looks++) {
            if (idle.idle(looks, start, TIMEOUT_NANOS)) {
                throw new IllegalStateException("no completion within 5 s");
            }
        }
        return n;
    }

    @Override
    public int byEvent(Cq cq, CompChannel channel, WorkCompletion[] wcs) {
        try {
            Cq fired = channel.awaitEvent(TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
            if (fired == null) {
                throw new IllegalStateException("no completion event within 5 s");
            }
            fired.requestNotify(false);
            return cq.poll(wcs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (VerbsException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
