package io.jrxe.tools.common;

import io.jrxe.wire.capture.CaptureTap;
import io.jrxe.wire.capture.PcapngWriter;

import java.nio.file.Path;

/**
 * One pcapng file for the packets of simulated pairs made one after another (a command's scenes), each pair's NICs
 * their own interfaces. Each pair's virtual clock starts again at zero, so the file lays the scenes end to end: a
 * scene's packets are stamped after the previous scene's last one, with a second between them, so that `jrxe view`
 * and Wireshark show the scenes in the order they ran.
 */
public final class SimulatedCaptureFile implements AutoCloseable {
    /** The gap between two scenes in the file's time. */
    private static final long SCENE_GAP_NANOS = 1_000_000_000L;
    private static final long MAX_PACKETS = 100_000;
    private static final long MAX_BYTES = 256L << 20;

    private final Path path;
    private final PcapngWriter writer;
    /** The virtual time the scenes before the current one took, gaps included. */
    private long elapsedNanos;

    /** Creates (or replaces) the file; a path that cannot be written is a one-line error (CaptureException). */
    public SimulatedCaptureFile(Path path) {
        this.path = path;
        this.writer = new PcapngWriter(path);
    }

    /** The packets of {@code pair} go to the file from now on, after those of the pairs recorded before it. */
    public void record(SimulatedPair pair) {
        CaptureTap tap = new CaptureTap(writer, MAX_PACKETS, MAX_BYTES, 0, pair.time.nanoTime() - elapsedNanos);
        pair.captureTo(tap);
    }

    /** {@code pair}'s scene is over: the next one is stamped after it. */
    public void ended(SimulatedPair pair) {
        elapsedNanos += pair.time.nanoTime() + SCENE_GAP_NANOS;
    }

    public Path path() {
        return path;
    }

    /** The packets written so far. */
    public long written() {
        return writer.packetsWritten();
    }

    /** The lines a command prints at its end: where the capture is and how to look at it. */
    public String howToOpen() {
        return String.format(java.util.Locale.ROOT, "Capture: %s (%d packets: each one as sent and as received). Open it with:%n  ./jrxe view %s%n"
                + "  tshark -r %s%n  ./jrxe decode %s", path, written(), path, path, path);
    }

    @Override
    public void close() {
        writer.close();
    }
}
