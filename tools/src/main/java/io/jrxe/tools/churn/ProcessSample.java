package io.jrxe.tools.churn;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What a churn run watches in its own process at a checkpoint: the heap in use right after a full collection, the
 * live threads, and the open files (-1 where the operating system has no /proc/self/fd to count them in).
 *
 * @param cycles    cycles done when it was taken
 * @param seconds   since the run started
 * @param heapBytes heap in use after the collection
 * @param threads   live threads
 * @param openFiles open file descriptors (sockets included), or -1
 */
public record ProcessSample(long cycles, double seconds, long heapBytes, int threads, long openFiles) {
    private static final Path OPEN_FILES = Path.of("/proc/self/fd");

    /** Collects the garbage, then samples. Control path only: a collection takes tens of milliseconds. */
    public static ProcessSample take(long cycles, long startNanos) {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        return new ProcessSample(cycles, (System.nanoTime() - startNanos) / 1e9, heap, threads, countOpenFiles());
    }

    private static long countOpenFiles() {
        if (!Files.isDirectory(OPEN_FILES)) {
            return -1;
        }
        try (Stream<Path> s = Files.list(OPEN_FILES)) {
            return s.count();
        } catch (IOException e) {
            return -1;
        }
    }
}
