package io.jrxe.wire.capture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The sentences both capture readers ({@link CaptureReader}, {@link CaptureStream}) say about a file that is not a
 * whole capture, so that a user reads the same words whichever tool read it.
 */
final class CaptureFiles {
    private static final String PCAP_NEXT_EX_PREFIX = "Error occurred in pcap_next_ex(): ";
    static final String NEEDS_LIBPCAP_1_5 = "reading captures needs libpcap 1.5 or later (for nanosecond timestamps): "
            + "install the Debian package libpcap0.8";

    private CaptureFiles() {
    }

    /** Refuses, before libpcap sees it, a path that is missing, a directory, unreadable or empty. */
    static void checkReadable(Path path) {
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

    /** What libpcap's refusal to open the file means to the user. */
    static CaptureException notOpened(Path path, String libpcapMessage, Throwable cause) {
        String reason = String.valueOf(libpcapMessage);
        if (reason.contains("is not supported by the pcap library")) {
            return new CaptureException(NEEDS_LIBPCAP_1_5, cause);
        }
        if (reason.endsWith("No such file or directory")) {
            return new CaptureException("no such file: " + path, cause);
        }
        return new CaptureException(path + " is not a pcap or pcapng capture: " + reason, cause);
    }

    /** A file that libpcap stopped reading part way, after {@code framesRead} whole frames. */
    static CaptureException damaged(Path path, long framesRead, String libpcapMessage, Throwable cause) {
        String reason = String.valueOf(libpcapMessage);
        if (reason.startsWith(PCAP_NEXT_EX_PREFIX)) {
            reason = reason.substring(PCAP_NEXT_EX_PREFIX.length());
        }
        if (reason.contains("truncated")) {
            return new CaptureException(path + " is truncated after frame " + framesRead, cause);
        }
        return new CaptureException(path + " is damaged after frame " + framesRead + ": " + reason, cause);
    }
}
