package io.jrxe.wire.capture;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;

/**
 * Reads the frames of a classic pcap or a pcapng capture written by any tool (tcpdump,
 * Wireshark, jrxe's {@link PcapngWriter}), through libpcap via Pcap4J: libpcap is the reference
 * reader of both formats, so jrxe accepts exactly the files the other tools accept.
 * <p>
 * Timestamps are always read in nanoseconds; libpcap scales microsecond captures up.
 * Every failure is a {@link CaptureException} whose message names the file and the problem.
 * <p>
 * Not thread-safe, and confined to the thread that reads: Pcap4J keeps each packet's timestamp
 * and length in thread-locals.
 */
public final class CaptureReader implements AutoCloseable {
    private static final String PCAP_NEXT_EX_PREFIX = "Error occurred in pcap_next_ex(): ";

    private final Path path;
    private final PcapHandle handle;
    private final int linkType;
    private long framesRead;
    private boolean ended;
    private boolean closed;

    public CaptureReader(Path path) {
        this.path = path;
        checkReadableFile(path);
        PcapLibrary.version();
        this.handle = openOffline(path);
        this.linkType = handle.getDlt().value();
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
        return linkType;
    }

    /** The next frame, or null after the last one. */
    public CapturedFrame next() {
        if (closed) {
            throw new IllegalStateException("the reader of " + path + " is closed");
        }
        if (ended) {
            return null;
        }
        byte[] data;
        try {
            data = handle.getNextRawPacketEx();
        } catch (EOFException e) {
            ended = true;
            return null;
        } catch (PcapNativeException e) {
            ended = true;
            throw damaged(e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            // Pcap4J makes each record's timestamp a java.sql.Timestamp, which refuses a fraction of a
            // second that is not below one second; libpcap hands such a record on as it is, so the
            // fault is the file's (a fuzzed pcap found it) and is reported as damage, not thrown raw.
            ended = true;
            throw damaged("frame " + (framesRead + 1) + " has a timestamp whose fraction of a second is a second"
                    + " or more", e);
        } catch (TimeoutException e) {
            // Only live captures time out; a file that does has something wrong with it.
            ended = true;
            throw damaged("libpcap timed out reading it", e);
        } catch (NotOpenException e) {
            throw new IllegalStateException("the reader of " + path + " is closed", e);
        }
        framesRead++;
        return new CapturedFrame(framesRead, nanosSinceEpoch(handle.getTimestamp()), handle.getOriginalLength(),
                data, linkType);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            handle.close();
        }
    }

    private static void checkReadableFile(Path path) {
        if (!Files.exists(path)) {
            throw new CaptureException("no such file: " + path);
        }
        if (Files.isDirectory(path)) {
            throw new CaptureException(path + " is a directory, not a capture");
        }
        if (!Files.isReadable(path)) {
            throw new CaptureException("cannot read " + path + ": permission denied");
        }
        try {
            if (Files.size(path) == 0) {
                // libpcap would say "truncated dump file", which sounds like a damaged capture.
                throw new CaptureException(path + " is empty, not a pcap or pcapng capture");
            }
        } catch (IOException e) {
            throw new CaptureException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    private static PcapHandle openOffline(Path path) {
        try {
            return Pcaps.openOffline(path.toString(), PcapHandle.TimestampPrecision.NANO);
        } catch (PcapNativeException e) {
            String reason = String.valueOf(e.getMessage());
            if (reason.contains("is not supported by the pcap library")) {
                throw new CaptureException("reading captures needs libpcap 1.5 or later (for nanosecond timestamps): "
                        + "install the Debian package libpcap0.8", e);
            }
            if (reason.endsWith("No such file or directory")) {
                throw new CaptureException("no such file: " + path, e);
            }
            throw new CaptureException(path + " is not a pcap or pcapng capture: " + reason, e);
        } catch (LinkageError e) {
            throw PcapLibrary.unavailable(e);
        }
    }

    private CaptureException damaged(String libpcapMessage, Exception cause) {
        String reason = String.valueOf(libpcapMessage);
        if (reason.startsWith(PCAP_NEXT_EX_PREFIX)) {
            reason = reason.substring(PCAP_NEXT_EX_PREFIX.length());
        }
        if (reason.contains("truncated")) {
            return new CaptureException(path + " is truncated after frame " + framesRead, cause);
        }
        return new CaptureException(path + " is damaged after frame " + framesRead + ": " + reason, cause);
    }

    private static long nanosSinceEpoch(Timestamp timestamp) {
        // Timestamp keeps whole seconds in getTime() (with the milliseconds of getNanos() added) and
        // the full fraction of the second in getNanos().
        return Math.floorDiv(timestamp.getTime(), 1000L) * 1_000_000_000L + timestamp.getNanos();
    }
}
