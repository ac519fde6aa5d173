package io.jrxe.verbs.udp;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where a stretch of code allocates, sampled by a JFR recording of jdk.ObjectAllocationSample: the classes
 * allocated and the frames that allocated them, heaviest first. For a test's failure message, when a path that
 * should allocate nothing did.
 */
final class AllocationSites implements AutoCloseable {
    private static final int FRAMES = 6;
    private final Recording recording = new Recording();

    private AllocationSites() {
        recording.enable("jdk.ObjectAllocationSample").with("throttle", "10000/s").withStackTrace();
        recording.start();
    }

    static AllocationSites start() {
        return new AllocationSites();
    }

    /** Stops the recording and says its {@code n} heaviest sites, one per line: weight, class, frames. */
    String top(int n) {
        recording.stop();
        try {
            Path file = Files.createTempFile("jrxe-allocations", ".jfr");
            try {
                recording.dump(file);
                Map<String, Long> weights = new HashMap<>();
                for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                    weights.merge(site(e), e.getLong("weight"), Long::sum);
                }
                return weights.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                        .limit(n).map(w -> String.format("  %,d bytes  %s", w.getValue(), w.getKey()))
                        .collect(Collectors.joining("\n"));
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            return "  (the recording could not be read: " + e.getMessage() + ")";
        }
    }

    private static String site(RecordedEvent e) {
        String type = e.getClass("objectClass").getName();
        if (e.getStackTrace() == null) {
            return type;
        }
        List<RecordedFrame> frames = e.getStackTrace().getFrames();
        return type + " <- " + frames.stream().limit(FRAMES)
                .map(f -> f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber())
                .collect(Collectors.joining(" <- "));
    }

    @Override
    public void close() {
        recording.close();
    }
}
