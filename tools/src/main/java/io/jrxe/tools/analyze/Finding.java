package io.jrxe.tools.analyze;

/**
 * One thing the analysis found, as Wireshark's expert info gives it: where (the frame that shows it and
 * its capture time), what, and the words that explain it, with the PSNs it covers and the frames it
 * points to.
 *
 * @param frame    the frame number that shows it (as Wireshark numbers frames)
 * @param time     that frame's capture time, nanoseconds since the Unix epoch
 * @param psnFirst the first PSN it covers, or -1
 * @param psnLast  the last PSN it covers, or -1
 * @param count    how many packets (or messages, for CM) it covers
 * @param related  other frames it points to (the cause, the resend, ...), in the order the text names them
 * @param cause    for a retransmission, what caused it ({@link ResendCause.Kind#id()}); else null
 */
record Finding(FindingKind kind, long frame, long time, int psnFirst, int psnLast, long count, String text,
               long[] related, String cause) {

    Finding(FindingKind kind, long frame, long time, int psnFirst, int psnLast, long count, String text, long[] related) {
        this(kind, frame, time, psnFirst, psnLast, count, text, related, null);
    }

    Severity severity() {
        return kind.severity();
    }
}
