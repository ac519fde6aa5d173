package io.jrxe.tools.common;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Whether the JVM's JIT compilers are still busy: their total compilation time grew by more than
 * {@link #BUSY_SHARE} of the last {@link #WINDOW_NANOS}. The total grows only when a compilation ends, and one
 * compilation of the data path can take 250 ms, hence the long window.
 */
final class JitActivity {
    static final long WINDOW_NANOS = 500_000_000L;
    static final long STEP_NANOS = 50_000_000L;
    static final double BUSY_SHARE = 0.1;

    /** The compilers' total time so far, in milliseconds; null without a JIT to watch. */
    private final LongSupplier totalMillis;
    /** The total at each of the last WINDOW/STEP samples, a ring. */
    private final long[] totals = new long[(int) (WINDOW_NANOS / STEP_NANOS)];
    private int samples;
    private long nextSampleAt;
    private boolean busy = true;

    JitActivity() {
        this(compilersOf(ManagementFactory.getCompilationMXBean()));
    }

    /** @param totalMillis the compilers' total time so far (tests give their own); null: no JIT to watch */
    JitActivity(LongSupplier totalMillis) {
        this.totalMillis = totalMillis;
    }

    /** The compilers' total time so far, in milliseconds, as a supplier; null without a JIT to watch. */
    static LongSupplier compilersOf(CompilationMXBean bean) {
        return bean != null && bean.isCompilationTimeMonitoringSupported() ? bean::getTotalCompilationTime : null;
    }

    /** Samples at most once a step; busy until a whole window has been seen. False without a JIT to watch. */
    boolean busy(long nowNanos) {
        if (totalMillis == null) {
            return false;
        }
        if (samples == 0 || nowNanos - nextSampleAt >= 0) {
            long total = totalMillis.getAsLong();
            int slot = samples % totals.length;
            if (samples >= totals.length) {
                busy = total - totals[slot] > BUSY_SHARE * WINDOW_NANOS / 1e6;
            }
            totals[slot] = total;
            samples++;
            nextSampleAt = nowNanos + STEP_NANOS;
        }
        return busy;
    }
}
