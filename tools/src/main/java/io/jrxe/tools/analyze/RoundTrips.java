package io.jrxe.tools.analyze;

import org.HdrHistogram.Histogram;

/**
 * Request-to-response times of one requester as the capture point sees them: from a request's first
 * sending to the ACK, READ response or atomic ACK that answers it (a request sent more than once gives no
 * sample, as in Karn's rule). Kept in an HdrHistogram, so a million samples cost what a hundred do.
 */
final class RoundTrips {
    /** Made at the first sample: a capture of many connections that never answer (a hostile one) costs nothing here. */
    private Histogram histogram;

    void record(long nanos) {
        if (nanos >= 0) {
            if (histogram == null) {
                histogram = new Histogram(3);
            }
            histogram.recordValue(nanos);
        }
    }

    long count() {
        return histogram == null ? 0 : histogram.getTotalCount();
    }

    long median() {
        return histogram == null ? 0 : histogram.getValueAtPercentile(50);
    }

    long p99() {
        return histogram == null ? 0 : histogram.getValueAtPercentile(99);
    }

    long max() {
        return histogram == null ? 0 : histogram.getMaxValue();
    }
}
