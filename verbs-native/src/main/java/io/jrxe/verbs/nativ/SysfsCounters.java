package io.jrxe.verbs.nativ;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A kernel device's counters: /sys/class/infiniband/DEV/ports/N/hw_counters, one file per
 * counter, with the names jrxe's emulated counters also carry (rxe's).
 */
final class SysfsCounters {
    private SysfsCounters() {
    }

    /** The counters by name; empty when the device has none there (or sysfs is not mounted). */
    static Map<String, Long> read(String devicePath, int port) {
        Map<String, Long> counters = new TreeMap<>();
        Path dir = Path.of(devicePath, "ports", Integer.toString(port), "hw_counters");
        if (!Files.isDirectory(dir)) {
            return counters;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                try {
                    counters.put(f.getFileName().toString(), Long.parseLong(Files.readString(f).trim()));
                } catch (IOException | NumberFormatException e) {
                    // A counter that cannot be read (lifespan is a setting, not a count) is left out.
                }
            }
        } catch (IOException e) {
            return counters;
        }
        return counters;
    }
}
