package io.jrxe.tools.common;

import io.jrxe.verbs.idle.Nap;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Waits for the JIT's compilers to finish what a warm-up gave them: until their total compilation time has not grown
 * for {@link #QUIET_NANOS}, or {@link #LIMIT_NANOS} passed. The total grows when a compilation ends, and a C1
 * compilation of a latency loop's method takes well under the quiet time, so a queue still being worked through
 * does not look quiet.
 */
public final class JitSettle {
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    static final long LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private JitSettle() {
    }

    /** @return the nanoseconds waited; 0 on a JVM without a JIT to watch */
    public static long await() {
        LongSupplier jit = JitActivity.compilersOf(ManagementFactory.getCompilationMXBean());
        if (jit == null) {
            return 0;
        }
        long start = System.nanoTime();
        long total = jit.getAsLong();
        long quietSince = start;
        long now = start;
        while (now - quietSince < QUIET_NANOS && now - start < LIMIT_NANOS) {
            Nap.forNanos(TimeUnit.MILLISECONDS.toNanos(2));
            now = System.nanoTime();
            long t = jit.getAsLong();
            if (t != total) {
                total = t;
                quietSince = now;
            }
        }
        return now - start;
    }
}
