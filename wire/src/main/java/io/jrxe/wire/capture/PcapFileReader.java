package io.jrxe.wire.capture;

import java.io.EOFException;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.concurrent.TimeoutException;

import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;

/**
 * {@link CaptureReader}'s work, done through Pcap4J. Apart from it so that CaptureReader can say that Pcap4J is
 * missing: linking this class loads Pcap4J's exception classes, and fails without them.
 */
final class PcapFileReader implements AutoCloseable {
    private final Path path;
    private final PcapHandle handle;
    private final int linkType;
    private long framesRead;
    private boolean ended;
    private boolean closed;

    /** Opens a file that {@link CaptureReader} has found readable, with libpcap loaded. */
    PcapFileReader(Path path) {
        this.path = path;
        this.handle = openOffline(path);
        this.linkType = handle.getDlt().value();
    }

    int linkType() {
        return linkType;
    }

    CapturedFrame next() {
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

    private static PcapHandle openOffline(Path path) {
        try {
            return Pcaps.openOffline(path.toString(), PcapHandle.TimestampPrecision.NANO);
        } catch (PcapNativeException e) {
            throw CaptureFiles.notOpened(path, e.getMessage(), e);
        } catch (LinkageError e) {
            throw PcapLibrary.unavailable(e);
        }
    }

    private CaptureException damaged(String libpcapMessage, Exception cause) {
        return CaptureFiles.damaged(path, framesRead, libpcapMessage, cause);
    }

    private static long nanosSinceEpoch(Timestamp timestamp) {
        // Timestamp keeps whole seconds in getTime() (with the milliseconds of getNanos() added) and
        // the full fraction of the second in getNanos().
        return Math.floorDiv(timestamp.getTime(), 1000L) * 1_000_000_000L + timestamp.getNanos();
    }
}
