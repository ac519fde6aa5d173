package io.jrxe.wire.capture;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the frames of a classic pcap or a pcapng capture written by any tool (tcpdump,
 * Wireshark, jrxe's {@link PcapngWriter}), through libpcap via Pcap4J: libpcap is the reference
 * reader of both formats, so jrxe accepts exactly the files the other tools accept.
 * <p>
 * Pcap4J ({@code org.pcap4j:pcap4j-core}) is an optional dependency of jrxe-wire: a program that reads captures
 * puts it on its class path, as jrxe's command line does. Without it, opening a capture says so.
 * <p>
 * Timestamps are always read in nanoseconds; libpcap scales microsecond captures up.
 * Every failure is a {@link CaptureException} whose message names the file and the problem.
 * <p>
 * Not thread-safe, and confined to the thread that reads: Pcap4J keeps each packet's timestamp
 * and length in thread-locals.
 */
public final class CaptureReader implements AutoCloseable {
    private final Path path;
    private final PcapFileReader file;

    public CaptureReader(Path path) {
        this.path = path;
        CaptureFiles.checkReadable(path);
        PcapLibrary.version();
        this.file = new PcapFileReader(path);
    }

    /** All frames of the capture at {@code path}, in file order. */
    public static List<CapturedFrame> readAll(Path path) {
        try (CaptureReader reader = new CaptureReader(path)) {
            List<CapturedFrame> frames = new ArrayList<>();
            for (CapturedFrame frame = reader.next(); frame != null; frame = reader.next()) {
                frames.add(frame);
            }
            return frames;
        }
    }

    /** The version of the libpcap that reads captures, e.g. for a tool's diagnostics. */
    public static String libpcapVersion() {
        return PcapLibrary.version();
    }

    public Path path() {
        return path;
    }

    /** The capture's LINKTYPE_ (the first interface's, for pcapng), see {@link io.jrxe.wire.framing.LinkType}. */
    public int linkType() {
        return file.linkType();
    }

    /** The next frame, or null after the last one. */
    public CapturedFrame next() {
        return file.next();
    }

    @Override
    public void close() {
        file.close();
    }
}
