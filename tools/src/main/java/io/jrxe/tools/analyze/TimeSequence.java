package io.jrxe.tools.analyze;

import java.util.ArrayList;
import java.util.List;

/**
 * What a time-sequence graph of one requester draws (tcptrace's and Wireshark's Stevens graph, for RoCE):
 * request PSNs against time, new and resent apart, the PSN acknowledged so far, NAKs, RNR NAKs and their
 * waits, PSNs the capture skipped, copies and late packets. PSNs are counted from the requester's first
 * one, without wrapping. Each series is bounded ({@link PointSeries}); the waits keep the first
 * {@link #LARGEST_WAITS}.
 */
final class TimeSequence {
    private static final int BUCKETS = 1024;
    private static final int MARK_BUCKETS = 512;
    static final int LARGEST_WAITS = 1000;

    /** An RNR wait: from the RNR NAK to the resend (or the end of the capture), at a PSN. */
    record Wait(long from, long to, long psn) {
    }

    final PointSeries sent = new PointSeries(BUCKETS);
    final PointSeries resent = new PointSeries(MARK_BUCKETS);
    final PointSeries acked = new PointSeries(BUCKETS);
    final PointSeries naks = new PointSeries(MARK_BUCKETS);
    final PointSeries rnrNaks = new PointSeries(MARK_BUCKETS);
    final PointSeries gaps = new PointSeries(MARK_BUCKETS);
    final PointSeries duplicates = new PointSeries(MARK_BUCKETS);
    final PointSeries reordered = new PointSeries(MARK_BUCKETS);
    final List<Wait> waits = new ArrayList<>();
    long waitsLeftOut;

    void wait(long from, long to, long psn) {
        if (waits.size() < LARGEST_WAITS) {
            waits.add(new Wait(from, to, psn));
        } else {
            waitsLeftOut++;
        }
    }

    boolean isEmpty() {
        return sent.isEmpty() && resent.isEmpty();
    }
}
