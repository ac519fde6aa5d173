package io.jrxe.tools.perftest;

/**
 * How long a bandwidth client waits for its next completion before it says the peer stopped answering: the
 * --timeout, or longer when many QPs make the first completions late. A QP's first signaled work request is its
 * cq_mod-th, and the NIC serves its QPs in turn, so every QP sends cq_mod messages before any completes: 10,000
 * QPs of 4 KiB writes with a completion every 100 move 4 GB first, 20 s at 200 MB/s. The wait allows those bytes
 * at {@link #FLOOR_BYTES_PER_SECOND} on top of the timeout. A peer that dies is still seen sooner on RC: its QPs
 * end with RETRY_EXC_ERR when their retries run out, and that completion ends the wait.
 */
final class FirstCompletionWait {
    /** The slowest rate a run is expected to move its first completions' bytes at (a loaded 2-core machine). */
    static final double FLOOR_BYTES_PER_SECOND = 32.0 * (1 << 20);

    private FirstCompletionWait() {
    }

    /** The wait, in milliseconds, of a client with {@code qps} QPs of {@code size}-byte messages, signaled every {@code cqMod}. */
    static int millis(int timeoutMillis, int qps, int cqMod, long size) {
        double firstBytes = (double) qps * cqMod * size;
        long allowance = (long) Math.ceil(firstBytes / FLOOR_BYTES_PER_SECOND * 1000);
        return (int) Math.min(Integer.MAX_VALUE, timeoutMillis + allowance);
    }
}
