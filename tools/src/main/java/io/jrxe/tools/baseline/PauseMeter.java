package io.jrxe.tools.baseline;

import java.util.concurrent.TimeUnit;

/**
 * How often this machine stops a running thread, with no jrxe and no socket involved: one thread per core reads
 * the clock in a tight loop, and any gap between two reads longer than {@link #PAUSE_NANOS} is a pause (a timer
 * interrupt, the kernel's own work, another process, or on a virtual machine the host taking the CPU away).
 *
 * <p>A latency test's tail is made of such pauses: a round trip that meets one is longer by it. If a spinning
 * thread sees a pause above 10 µs a thousand times a second, a 12 µs round trip that keeps both cores busy meets
 * one in about 2.4% of its iterations, and its p99 cannot be below typical + 10 µs whatever the software does.
 * So {@code udp-baseline --pauses} prints these rates next to the figures it bounds (docs/benchmarks.md).
 */
final class PauseMeter {
    /** A gap between two clock reads longer than this is counted: a loop turn itself takes tens of nanoseconds. */
    static final long PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(2);
    /**
     * The thresholds a pause is counted against, in microseconds, each a row of the report. The first is
     * {@link #PAUSE_NANOS}: every pause. Short ones matter too: on a 2-core virtual machine a thread can lose 2-5 µs
     * about 12,000 times a second, and a 7 µs round trip then meets one in about a fifth of its iterations.
     */
    static final long[] THRESHOLD_MICROS = {2, 5, 10, 20, 50, 100, 1000};

    /**
     * What the spinning threads saw.
     *
     * @param threads      spinning threads, one per core
     * @param seconds      how long each spun
     * @param above        per {@link #THRESHOLD_MICROS} entry, the pauses longer than it, over all threads
     * @param pausedNanos  the time spent in pauses longer than {@link #PAUSE_NANOS}, over all threads
     * @param longestNanos the longest pause any thread saw
     */
    record Result(int threads, double seconds, long[] above, long pausedNanos, long longestNanos) {
        /** Pauses longer than THRESHOLD_MICROS[i] per second of one thread. */
        double perThreadSecond(int i) {
            return above[i] / (threads * seconds);
        }

        /** The share of the spinning time lost in pauses. */
        double pausedShare() {
            return pausedNanos / (threads * seconds * 1e9);
        }
    }

    private final int threads;
    private final long nanos;

    PauseMeter(int threads, long nanos) {
        if (threads < 1 || nanos <= 0) {
            throw new IllegalArgumentException("threads " + threads + ", nanos " + nanos + ": both must be above 0");
        }
        this.threads = threads;
        this.nanos = nanos;
    }

    Result run() throws InterruptedException {
        Spinner[] spinners = new Spinner[threads];
        Thread[] running = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            spinners[i] = new Spinner(nanos);
            running[i] = new Thread(spinners[i], "pause-meter-" + i);
            running[i].setDaemon(true);
        }
        for (Thread t : running) {
            t.start();
        }
        long[] above = new long[THRESHOLD_MICROS.length];
        long paused = 0;
        long longest = 0;
        for (int i = 0; i < threads; i++) {
            running[i].join();
            for (int k = 0; k < above.length; k++) {
                above[k] += spinners[i].above[k];
            }
            paused += spinners[i].paused;
            longest = Math.max(longest, spinners[i].longest);
        }
        return new Result(threads, nanos / 1e9, above, paused, longest);
    }

    /** One thread's loop and what it counted; the fields are read after join, which orders them. */
    static final class Spinner implements Runnable {
        private static final long[] LIMITS = new long[THRESHOLD_MICROS.length];

        static {
            for (int k = 0; k < LIMITS.length; k++) {
                LIMITS[k] = TimeUnit.MICROSECONDS.toNanos(THRESHOLD_MICROS[k]);
            }
        }

        private final long nanos;
        final long[] above = new long[THRESHOLD_MICROS.length];
        long paused;
        long longest;

        Spinner(long nanos) {
            this.nanos = nanos;
        }

        @Override
        public void run() {
            long start = System.nanoTime();
            long last = start;
            while (last - start < nanos) {
                long now = System.nanoTime();
                count(now - last);
                last = now;
            }
        }

        /** Counts one gap between two clock reads. */
        void count(long gap) {
            if (gap <= PAUSE_NANOS) {
                return;
            }
            paused += gap;
            longest = Math.max(longest, gap);
            for (int k = 0; k < LIMITS.length && gap > LIMITS[k]; k++) {
                above[k]++;
            }
        }
    }
}
