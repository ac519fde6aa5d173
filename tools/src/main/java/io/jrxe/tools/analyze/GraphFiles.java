package io.jrxe.tools.analyze;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.FileErrors;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The analysis's graphs as SVG files in one folder: per connection, {@code connN-throughput.svg}, and for each side
 * that sent requests, {@code connN-A-time-sequence.svg} (side A sent first, B second).
 */
final class GraphFiles {
    private GraphFiles() {
    }

    /** Writes the graphs of {@code a} into {@code dir} (made if missing); returns the files written, in order. */
    static List<Path> write(CaptureAnalysis a, Path dir) {
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            long start = a.timeline().start();
            for (Connection c : a.connections()) {
                for (int side = 0; side < 2; side++) {
                    if (!c.requesters[side].graph.isEmpty()) {
                        written.add(write(dir.resolve("conn" + c.id + "-" + (char) ('A' + side) + "-time-sequence.svg"),
                                TimeSequenceGraph.svg(c, side, start)));
                    }
                }
                written.add(write(dir.resolve("conn" + c.id + "-throughput.svg"), ThroughputGraph.svg(c, start, a.lastTime)));
            }
        } catch (IOException e) {
            throw new UserError("cannot write the graphs into " + dir + ": " + FileErrors.why(e), e);
        }
        return written;
    }

    private static Path write(Path file, String svg) throws IOException {
        return Files.writeString(file, svg, StandardCharsets.UTF_8);
    }
}
