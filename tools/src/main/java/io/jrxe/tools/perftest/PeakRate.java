package io.jrxe.tools.perftest;

/**
 * perftest's peak bandwidth: the least time per message over every run of messages from one post to a completion.
 * Completions are known only every cq_mod messages and at the last; posts every {@code step} (the post list).
 *
 * <p>perftest tries every such pair of a post and a later completion, which at a million messages (10,000 QPs of 100)
 * is ten billion pairs and seconds of the client's time after its run, long enough for a server to give up on the
 * closing handshake. The same minimum comes from a sweep: post {@code i} is the point (i - 1, posted[i]),
 * completion {@code j} the point (j, completed[j]), and the time per message of the pair is the slope between them.
 * The least slope from a completion back to any post before it is to a vertex of the upper convex hull of those
 * posts, found by a binary search, since the slopes along the hull fall to that vertex and rise after it.
 */
final class PeakRate {
    private PeakRate() {
    }

    /**
     * @param posted    the post time of each message, nanoseconds (read every {@code step})
     * @param completed the completion time of each message (read every {@code cqMod}, and the last)
     * @return the least nanoseconds per message, at least 1
     */
    static double bestNanosPerMessage(long[] posted, long[] completed, int total, int cqMod, int step) {
        double best = completed[total - 1] - posted[0];
        int posts = (total + step - 1) / step;
        double[] hullX = new double[posts];
        double[] hullY = new double[posts];
        int hull = 0;
        int nextPost = 0;
        for (int j = Math.min(cqMod, total) - 1; ; j = Math.min(j + cqMod, total - 1)) {
            for (; nextPost <= j; nextPost += step) {
                double x = nextPost - 1;
                double y = posted[nextPost];
                while (hull >= 2 && turnsLeftOrStraight(hullX[hull - 2], hullY[hull - 2], hullX[hull - 1],
                        hullY[hull - 1], x, y)) {
                    hull--;
                }
                hullX[hull] = x;
                hullY[hull] = y;
                hull++;
            }
            double ex = j;
            double ey = completed[j];
            int lo = 0;
            int hi = hull - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (slope(hullX[mid + 1], hullY[mid + 1], ex, ey) <= slope(hullX[mid], hullY[mid], ex, ey)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            best = Math.min(best, slope(hullX[lo], hullY[lo], ex, ey));
            if (j == total - 1) {
                break;
            }
        }
        return Math.max(best, 1);
    }

    private static double slope(double x0, double y0, double x1, double y1) {
        return (y1 - y0) / (x1 - x0);
    }

    /** Whether o, a, b turn left or go straight: a is then not on the upper hull. */
    private static boolean turnsLeftOrStraight(double ox, double oy, double ax, double ay, double bx, double by) {
        return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox) >= 0;
    }
}
