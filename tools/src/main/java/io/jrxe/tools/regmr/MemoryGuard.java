package io.jrxe.tools.regmr;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * How large a buffer the command may allocate: half the memory the system has available. The buffer is written
 * through (every page backed) and, on a kernel device, pinned; taking more than half of what is free would push
 * the rest of the machine into swap or the OOM killer, and the timings would measure that instead.
 */
final class MemoryGuard {
    private MemoryGuard() {
    }

    /** Half of Linux's MemAvailable (free memory plus what the page cache can give back), else half the free memory. */
    static long largestBuffer() {
        return available().orElseGet(MemoryGuard::freeMemory) / 2;
    }

    private static OptionalLong available() {
        if (io.jrxe.verbs.spi.Platform.linuxOnlyUnavailable() != null) {
            return OptionalLong.empty();
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    String kib = line.substring("MemAvailable:".length()).replace("kB", "").strip();
                    return OptionalLong.of(Long.parseLong(kib) * 1024);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Not Linux, or a /proc we cannot read: the JVM's count of free memory stands in.
        }
        return OptionalLong.empty();
    }

    private static long freeMemory() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getFreeMemorySize();
    }
}
