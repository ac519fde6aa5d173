package io.jrxe.wire.capture;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What tshark, not jrxe, reads of the packets one RoCE sender put in an IPv4 capture. Each IPv4 packet carries the
 * identification its sender gave it: a resend gets a new one, a copy made on the way keeps it. From the
 * identification and the BTH PSN of every frame from {@code source}, in capture order:
 * <ul>
 *   <li>{@code copies}: frames whose identification and PSN an earlier frame had;</li>
 *   <li>{@code gapPsns}: the PSNs lost at their first sending, those passed over by a higher PSN before they were
 *   seen;</li>
 *   <li>{@code resends}: every captured sending of a PSN after its first, seen or lost (a lost PSN's first
 *   capture is one);</li>
 *   <li>{@code frames}: all of them, copies included.</li>
 * </ul>
 */
public record RequestSendings(long frames, long copies, long resends, Set<Integer> gapPsns) {
    private static final int PSN_MASK = 0xFFFFFF;

    public static RequestSendings of(Path capture, String source) {
        Set<String> identifications = new HashSet<>();
        Set<Integer> seen = new HashSet<>();
        Set<Integer> gaps = new TreeSet<>();
        long frames = 0;
        long copies = 0;
        long sendings = 0;
        int first = -1;
        int highest = -1;
        for (List<String> row : Tshark.fields(capture, "ip.src", "ip.id", "infiniband.bth.psn")) {
            if (!row.get(0).equals(source) || row.get(2).isEmpty()) {
                continue;
            }
            int psn = Integer.parseInt(row.get(2));
            frames++;
            if (!identifications.add(row.get(1) + "/" + psn)) {
                copies++;
                continue;
            }
            if (first < 0) {
                first = psn;
            }
            int relative = (psn - first) & PSN_MASK;
            sendings++;
            if (seen.add(psn) && relative > highest) {
                for (int r = highest + 1; r < relative; r++) {
                    gaps.add((first + r) & PSN_MASK);
                }
                highest = relative;
            }
        }
        if (frames == 0) {
            throw new IllegalStateException("no RoCE packet from " + source + " in " + capture);
        }
        // Every sending but the first of each PSN; a lost first sending makes the PSN's first capture a resend. A gap
        // PSN that the capture never holds (its resend came after the capture stopped) adds no frame.
        long capturedGaps = gaps.stream().filter(seen::contains).count();
        long resends = sendings - seen.size() + capturedGaps;
        return new RequestSendings(frames, copies, resends, gaps);
    }
}
