package io.jrxe.tools.analyze;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The findings of one part of the capture (a direction of a connection, the CM, the capture itself):
 * every one counted by kind, and the first {@code keep} of each kind kept with their words, so that a
 * capture with a million retransmissions costs a count, not a million sentences.
 */
final class Findings {
    private final int keep;
    private final List<Finding> kept = new ArrayList<>();
    private final Map<FindingKind, Long> counts = new EnumMap<>(FindingKind.class);

    /** @param keep how many of each kind to keep in full; 0 keeps all */
    Findings(int keep) {
        this.keep = keep;
    }

    void add(Finding f) {
        long n = counts.merge(f.kind(), 1L, Long::sum);
        if (keep == 0 || n <= keep) {
            kept.add(f);
        }
    }

    /** The findings kept, in the order they were found. */
    List<Finding> kept() {
        return kept;
    }

    long count(FindingKind kind) {
        return counts.getOrDefault(kind, 0L);
    }

    /** How many of {@code kind} were counted but not kept. */
    long leftOut(FindingKind kind) {
        return keep == 0 ? 0 : Math.max(0, count(kind) - keep);
    }

    Map<FindingKind, Long> counts() {
        return counts;
    }

    long count(Severity severity) {
        long n = 0;
        for (Map.Entry<FindingKind, Long> e : counts.entrySet()) {
            if (e.getKey().severity() == severity) {
                n += e.getValue();
            }
        }
        return n;
    }
}
