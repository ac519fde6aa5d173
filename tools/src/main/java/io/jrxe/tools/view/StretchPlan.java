package io.jrxe.tools.view;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which stretches of a large capture's frames the page draws a ladder for: its start, the frames around each
 * finding (the first {@link #MOST_AROUND_FINDINGS} stretches of them) and around each frame asked for; those that
 * meet are one. So a page's size has a bound whatever the capture's, and the rest of the capture is in the analysis
 * and its graphs.
 */
final class StretchPlan {
    /** Frames drawn before and after a finding's or an asked-for frame. */
    static final int AROUND = 100;
    static final int MOST_AROUND_FINDINGS = 30;

    private StretchPlan() {
    }

    /**
     * The stretches {@code [from, to]}, sorted and apart, for a capture of {@code frames} frames whose first
     * {@code start} are drawn, with the findings at {@code findingFrames} (sorted) and the frames {@code asked}.
     */
    static List<long[]> of(long frames, long start, List<Long> findingFrames, List<Long> asked) {
        List<long[]> wanted = new ArrayList<>();
        wanted.add(new long[] {1, Math.min(start, frames)});
        for (long f : asked) {
            wanted.add(around(f, frames));
        }
        List<long[]> merged = merge(wanted);
        List<long[]> withFindings = merged;
        int findingStretches = 0;
        for (long f : findingFrames) {
            if (covered(withFindings, f)) {
                continue;
            }
            if (findingStretches == MOST_AROUND_FINDINGS) {
                break;
            }
            List<long[]> next = new ArrayList<>(withFindings);
            next.add(around(f, frames));
            withFindings = merge(next);
            findingStretches++;
        }
        return withFindings;
    }

    static boolean covered(List<long[]> stretches, long frame) {
        for (long[] s : stretches) {
            if (s[0] <= frame && frame <= s[1]) {
                return true;
            }
        }
        return false;
    }

    private static long[] around(long frame, long frames) {
        return new long[] {Math.max(1, frame - AROUND), Math.min(frames, frame + AROUND)};
    }

    private static List<long[]> merge(List<long[]> stretches) {
        List<long[]> sorted = new ArrayList<>(stretches);
        sorted.sort(Comparator.comparingLong(s -> s[0]));
        List<long[]> merged = new ArrayList<>();
        for (long[] s : sorted) {
            long[] last = merged.isEmpty() ? null : merged.getLast();
            if (last != null && s[0] <= last[1] + 1) {
                last[1] = Math.max(last[1], s[1]);
            } else {
                merged.add(new long[] {s[0], s[1]});
            }
        }
        return merged;
    }
}
