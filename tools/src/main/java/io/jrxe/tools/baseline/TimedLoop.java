package io.jrxe.tools.baseline;

import java.util.concurrent.TimeUnit;

/**
 * A piece of work repeated by one thread for a set time, and how often it got done: the rates {@code udp-baseline}
 * prints for work with no network stack (copying memory, computing ICRCs). The work runs in batches, each a call of
 * {@link #repeat}, so that the clock is read once per batch rather than once per unit, and so that the JIT compiles
 * {@link #repeat} as a method during the warm-up rather than only replacing a running loop.
 *
 * <p>A subclass folds something of every unit's result into {@link #sink}, which stays readable after the run, so
 * that the JIT cannot find the work unused and drop it.
 */
abstract class TimedLoop {
    /** Units per call of {@link #repeat}: a batch of the smallest unit (an ICRC of 1 KiB) takes microseconds. */
    static final int BATCH = 64;
    /** The longest warm-up: enough for the JIT to compile {@link #repeat} and what it calls. */
    private static final long MAX_WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * What a timed run did.
     *
     * @param units        units of work done
     * @param nanos        the time they took
     * @param bytesPerUnit the bytes a unit covers (a block copied, a packet checked)
     */
    record Rate(long units, long nanos, int bytesPerUnit) {
        double unitsPerSecond() {
            return units * 1e9 / nanos;
        }

        double mibPerSecond() {
            return unitsPerSecond() * bytesPerUnit / (1 << 20);
        }
    }

    /** Folded from every unit's result; read it after a run so that the work cannot be dropped as unused. */
    long sink;
    /** Units {@link #run} has done, warm-up included: what {@link #sink} holds the results of. */
    private long done;

    /** Does {@code units} units of the work. */
    abstract void repeat(int units);

    /** The bytes one unit covers. */
    abstract int bytesPerUnit();

    /** Runs the work untimed for a quarter of {@code nanos} (at most a second), then timed for {@code nanos}. */
    final Rate run(long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException("nanos " + nanos + ": must be above 0");
        }
        for (long start = System.nanoTime(); System.nanoTime() - start < Math.min(nanos / 4, MAX_WARM_UP_NANOS); ) {
            repeat(BATCH);
            done += BATCH;
        }
        long units = 0;
        long start = System.nanoTime();
        long elapsed;
        do {
            repeat(BATCH);
            units += BATCH;
            elapsed = System.nanoTime() - start;
        } while (elapsed < nanos);
        done += units;
        return new Rate(units, elapsed, bytesPerUnit());
    }

    /** Units the runs have done, warm-ups included. */
    final long done() {
        return done;
    }
}
