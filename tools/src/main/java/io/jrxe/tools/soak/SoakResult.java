package io.jrxe.tools.soak;

/**
 * What a soak run found.
 *
 * @param mismatches      operations that failed (wrong data or completion), completions nobody waited for, and
 *                        bytes found wrong after the run
 * @param lostCompletions completions still due when the run ended
 * @param fingerprint     the simulated network's fingerprint: equal runs sent equal packets
 * @param stoppedBecause  why the run had to stop before every operation finished, or null
 */
public record SoakResult(long ops, long ok, long mismatches, long lostCompletions, long retransmits, long seed,
                         long virtualNanos, long fingerprint, String stoppedBecause) {
    /** The line `jrxe soak` ends with. */
    public String summary() {
        return "ops=" + ops + " ok=" + ok + " mismatches=" + mismatches + " lost_completions=" + lostCompletions
                + " retransmits=" + retransmits + " seed=" + seed;
    }

    public boolean passed() {
        return mismatches == 0 && lostCompletions == 0;
    }
}
