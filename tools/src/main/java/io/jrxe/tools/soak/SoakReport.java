package io.jrxe.tools.soak;

import java.io.PrintWriter;
import java.util.List;

/**
 * What a run tells: progress about every tenth of the operations, one line for each of the first problems
 * (a failed operation, a completion nobody waited for or one that came twice, a byte found wrong after the
 * run, what was lost) and for each QP pair that failed, and the counts the {@link SoakResult} is made of.
 */
final class SoakReport {
    private static final int MAX_DETAILS = 20;

    private final long ops;
    private final PrintWriter diagnostics;
    private final SoakRun.Progress progress;
    private int details;
    private long finished;
    private long ok;
    private long expectedFailures;
    private long failedPairs;
    private long failedOps;
    private long stray;
    private long duplicated;
    private long sweepMismatches;
    private long lastFinishAt;
    private int lastDecile;

    /** {@code diagnostics} and {@code progress} may be null: then nobody hears of them. */
    SoakReport(long ops, PrintWriter diagnostics, SoakRun.Progress progress) {
        this.ops = ops;
        this.diagnostics = diagnostics;
        this.progress = progress;
    }

    /** One line about a problem; after the first few, one saying that more are not shown. */
    void detail(String line) {
        if (diagnostics == null) {
            return;
        }
        if (details < MAX_DETAILS) {
            diagnostics.println("soak: " + line);
        } else if (details == MAX_DETAILS) {
            diagnostics.println("soak: (more problems not shown)");
        }
        details++;
        diagnostics.flush();
    }

    /** The operation did something wrong ({@code why}, or null when a detail said so already); counted once. */
    void failed(Operation op, String why) {
        if (why != null) {
            detail("op " + op + ": " + why);
        }
        if (!op.failed) {
            op.failed = true;
            failedOps++;
        }
    }

    /** A completion that no posted work request waited for. */
    void stray(String what) {
        stray++;
        detail(what);
    }

    /** A line that is no problem (what the UC lanes did), unless null. */
    void note(String line) {
        if (diagnostics != null && line != null) {
            diagnostics.println("soak: " + line);
            diagnostics.flush();
        }
    }

    /** A second completion of a work request that had completed. */
    void duplicated(String what) {
        duplicated++;
        detail(what);
    }

    /** A QP pair failed: said, and counted, once. */
    void pairFailed(String line) {
        failedPairs++;
        detail(line);
    }

    /** Memory found wrong after the run, outside every operation. */
    void sweepMismatch(String what) {
        sweepMismatches++;
        detail(what);
    }

    /** The operation got its last completion at virtual time {@code nanos}. */
    void finished(Operation op, long nanos) {
        finished++;
        // A mismatch was counted when it was found.
        if (!op.failed && op.expectedFailure) {
            expectedFailures++;
        } else if (!op.failed) {
            ok++;
        }
        lastFinishAt = nanos;
        int decile = (int) (finished * 10 / Math.max(1, ops));
        if (decile != lastDecile) {
            lastDecile = decile;
            if (progress != null) {
                progress.report(finished, ops, nanos);
            }
        }
    }

    /** The run starts (or restarts its stall clock) at virtual time {@code nanos}. */
    void started(long nanos) {
        lastFinishAt = nanos;
    }

    long finished() {
        return finished;
    }

    long lastFinishAt() {
        return lastFinishAt;
    }

    /** Counts the completions the unfinished operations never got, and says which was the first. */
    long lost(List<Operation> unfinished) {
        long lost = 0;
        for (Operation op : unfinished) {
            int missing = op.missingCompletions();
            if (missing > 0 && lost == 0) {
                detail("op " + op + " got no " + (op.sendDone ? "receive" : "send") + " completion");
            }
            lost += missing;
        }
        return lost;
    }

    /** Counts the standing UC receives that never completed, not even flushed, and says so. */
    long lostStanding(int left) {
        if (left > 0) {
            detail(left + " standing UC receives got no completion, not even when their QP went to ERR");
        }
        return left;
    }

    SoakResult result(long seed, long lost, long retransmits, long virtualNanos, long fingerprint, String stopped) {
        return new SoakResult(ops, ok, failedPairs, expectedFailures, failedOps + stray + sweepMismatches, lost,
                duplicated, retransmits, seed, virtualNanos, fingerprint, stopped);
    }
}
