package io.jrxe.tools.compare;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WrOpcode;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A perftest-style run at one message size: RDMA_WRITE bandwidth (ib_write_bw's way: up to a queue's depth of
 * writes in flight, every one signaled) and RDMA_WRITE latency (one write at a time, from posting to its
 * completion, so one round trip of the write and its ACK).
 */
final class PerfSteps {
    private PerfSteps() {
    }

    static List<Step> all(int size, int iterations) {
        return List.of(
                Step.timed("bandwidth", "bandwidth: " + iterations + " RDMA_WRITEs of " + size + " bytes, up to "
                        + Connection.DEPTH + " in flight", e -> {
                    SendWr w = e.remote(WrOpcode.RDMA_WRITE, 0, size, 0);
                    long start = System.nanoTime();
                    int posted = 0;
                    while (posted < iterations) {
                        while (posted < iterations && posted - e.onA.size() < Connection.DEPTH) {
                            e.post(w);
                            posted++;
                        }
                        if (!e.await(1, 0)) {
                            break;
                        }
                    }
                    e.await(posted - e.onA.size(), 0);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    double bytes = (double) size * e.onA.size();
                    e.speed = String.format(Locale.ROOT, "%.1f MiB/s, %.0f messages/s", bytes / seconds / (1 << 20),
                            e.onA.size() / seconds);
                    return "-";
                }),
                Step.timed("latency", "latency: " + iterations + " RDMA_WRITEs of " + size + " bytes, one at a time, "
                        + "post to completion", e -> {
                    SendWr w = e.remote(WrOpcode.RDMA_WRITE, 0, size, 0);
                    long[] nanos = new long[iterations];
                    int done = 0;
                    while (done < iterations) {
                        long t0 = System.nanoTime();
                        e.post(w);
                        if (!e.await(1, 0)) {
                            break;
                        }
                        nanos[done++] = System.nanoTime() - t0;
                    }
                    long[] got = Arrays.copyOf(nanos, done);
                    Arrays.sort(got);
                    e.speed = done == 0 ? "no completion" : String.format(Locale.ROOT, "typical %.1f us, p99 %.1f us, "
                            + "min %.1f us", got[done / 2] / 1e3, got[Math.min(done - 1, (int) (done * 0.99))] / 1e3,
                            got[0] / 1e3);
                    return "-";
                }));
    }
}
