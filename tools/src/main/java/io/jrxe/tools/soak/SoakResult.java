package io.jrxe.tools.soak;

/**
 * What a soak run found.
 *
 * @param failedPairs            QP pairs that failed: a requester ran out of retries (as RC must when the network
 *                               loses too much), and the pair took no more work
 * @param expectedFailures       operations that completed with their pair's failure (retries exhausted, or
 *                               flushed): each exactly once, and every byte they cannot have touched checked
 * @param mismatches             operations that did something wrong (wrong data, completion or order), completions
 *                               nobody waited for, and bytes found wrong after the run
 * @param lostCompletions        completions still due when the run ended
 * @param duplicatedCompletions  second completions of work requests that had completed
 * @param fingerprint            the simulated network's fingerprint: equal runs sent equal packets
 * @param stoppedBecause         why the run had to stop before every operation finished, or null
 */
public record SoakResult(long ops, long ok, long failedPairs, long expectedFailures, long mismatches,
                         long lostCompletions, long duplicatedCompletions, long retransmits, long seed,
                         long virtualNanos, long fingerprint, String stoppedBecause) {
    /** Why a run stops when every QP pair failed. */
    public static final String NO_PAIR_SURVIVED = "no pair survived: the faults are too harsh to test anything";

    /** The line `jrxe soak` ends with. */
    public String summary() {
        return "ops=" + ops + " ok=" + ok + " failed_qp=" + failedPairs + " expected_failures=" + expectedFailures
                + " mismatches=" + mismatches + " lost_completions=" + lostCompletions
                + " duplicated_completions=" + duplicatedCompletions + " retransmits=" + retransmits + " seed=" + seed;
    }

    /**
     * Nothing went wrong and something was tested: a pair that failed legitimately is no failure of the run,
     * but a run that had to stop (every pair failed, time ran out) is.
     */
    public boolean passed() {
        return mismatches == 0 && lostCompletions == 0 && duplicatedCompletions == 0 && stoppedBecause == null;
    }
}
