package io.jrxe.tools.regmr;

import java.util.List;

/**
 * A straight line through the registration medians against the pages: its slope is what one more page costs, its
 * value at zero pages the fixed part (the call's round trip). Least squares over every size measured, so the
 * largest sizes, whose pages dwarf the fixed part, decide the slope.
 *
 * @param nanosPerPage the slope, in nanoseconds per 4 KiB page
 * @param fixedMicros  the line's value at zero pages, in microseconds
 */
record PageSlope(double nanosPerPage, double fixedMicros) {
    /** The line through {@code rows}' registration medians; null with fewer than two different page counts. */
    static PageSlope of(List<SizeCost> rows) {
        int n = rows.size();
        double sumX = 0;
        double sumY = 0;
        for (SizeCost r : rows) {
            sumX += pages(r);
            sumY += r.registration().medianMicros();
        }
        double meanX = sumX / n;
        double meanY = sumY / n;
        double sxx = 0;
        double sxy = 0;
        for (SizeCost r : rows) {
            double dx = pages(r) - meanX;
            sxx += dx * dx;
            sxy += dx * (r.registration().medianMicros() - meanY);
        }
        if (n < 2 || sxx == 0) {
            return null;
        }
        double micros = sxy / sxx;
        return new PageSlope(micros * 1000, meanY - micros * meanX);
    }

    static long pages(SizeCost row) {
        return Math.ceilDiv(row.bytes(), RegistrationTimer.PAGE);
    }
}
