package io.jrxe.verbs.nativ;

import java.lang.foreign.Arena;

/**
 * Waits for one of libibverbs' event fds (the async fd, a completion channel's fd) to become
 * readable, in slices, so that a wait has a timeout and a Java interrupt ends it.
 */
final class FdWait {
    private static final int SLICE_MILLIS = 50;

    private FdWait() {
    }

    /**
     * @param timeoutMillis 0 to look once, negative to wait for ever
     * @return true when the fd is readable, false when the time passed
     */
    static boolean readable(int fd, long timeoutMillis) throws NativeVerbsException, InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        try (Arena arena = Arena.ofConfined()) {
            while (true) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for libibverbs' fd " + fd);
                }
                long left = timeoutMillis < 0 ? SLICE_MILLIS : Math.max(0, (deadline - System.nanoTime()) / 1_000_000L);
                if (Libc.readable(fd, (int) Math.min(left, SLICE_MILLIS), arena)) {
                    return true;
                }
                if (timeoutMillis >= 0 && System.nanoTime() - deadline >= 0) {
                    return false;
                }
            }
        }
    }
}
