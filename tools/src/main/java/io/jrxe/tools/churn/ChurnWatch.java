package io.jrxe.tools.churn;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The figures of a churn run: a {@link ProcessSample} at every tenth of the cycles, the slowest cycle, and at the end
 * whether the process stayed flat after its warm-up (the first tenth): heap within {@link #HEAP_SLACK_BYTES} or a
 * quarter of the warm-up's heap, whichever is more; threads within {@link #THREAD_SLACK}; open files within
 * {@link #FILE_SLACK}. The slack absorbs what comes and goes on its own (a pooled buffer, a standby thread); a leak of
 * even a few hundred bytes a cycle over 100,000 cycles exceeds it.
 */
public final class ChurnWatch {
    static final long HEAP_SLACK_BYTES = 16L << 20;
    static final int THREAD_SLACK = 2;
    static final long FILE_SLACK = 8;

    private final String what;
    private final long cycles;
    private final PrintWriter out;
    private final long start = System.nanoTime();
    private final List<ProcessSample> samples = new ArrayList<>();
    private long nextCheckpoint;
    /** The slowest cycle of the tenth under way: the first tenth's includes the JIT's and the first packets' cost. */
    private long slowestNanos;
    private long slowestCycle;
    private long slowestAfterWarmUpNanos;

    /** Watches {@code cycles} cycles of {@code what} ("QP create/connect/WRITE/destroy"), printing to {@code out}. */
    public ChurnWatch(String what, long cycles, PrintWriter out) {
        this.what = what;
        this.cycles = cycles;
        this.out = out;
        this.nextCheckpoint = checkpoint(1);
    }

    private long checkpoint(int tenth) {
        return Math.max(1, cycles * tenth / 10);
    }

    /** Cycle {@code done} (counting from 1) took {@code nanos}; at a checkpoint, samples the process and prints it. */
    public void cycleDone(long done, long nanos) {
        if (nanos > slowestNanos) {
            slowestNanos = nanos;
            slowestCycle = done;
        }
        if (!samples.isEmpty()) {
            slowestAfterWarmUpNanos = Math.max(slowestAfterWarmUpNanos, nanos);
        }
        if (done >= nextCheckpoint) {
            ProcessSample s = ProcessSample.take(done, start);
            samples.add(s);
            out.println(line(s));
            out.flush();
            nextCheckpoint = checkpoint(samples.size() + 1);
            slowestNanos = 0;
        }
    }

    private String line(ProcessSample s) {
        return String.format(Locale.ROOT, "%s: cycles=%d time=%.1fs heap=%.1fMiB threads=%d open_files=%s slowest_since_last=%.1fms (cycle %d)",
                what, s.cycles(), s.seconds(), s.heapBytes() / 1048576.0, s.threads(),
                s.openFiles() < 0 ? "n/a" : Long.toString(s.openFiles()), slowestNanos / 1e6, slowestCycle);
    }

    /** The slowest cycle's time after the warm-up (the first tenth). */
    public long slowestAfterWarmUpNanos() {
        return slowestAfterWarmUpNanos;
    }

    /**
     * What grew after the warm-up, one phrase each ("heap 12.0 -> 40.3 MiB"), or none: the process stayed flat. Needs
     * two checkpoints (ten cycles or more); with fewer, nothing can be said and nothing is listed.
     */
    public List<String> growth() {
        return growth(samples);
    }

    /** {@link #growth()} of these samples, the first taken after the warm-up. */
    static List<String> growth(List<ProcessSample> samples) {
        List<String> grew = new ArrayList<>();
        if (samples.size() < 2) {
            return grew;
        }
        ProcessSample warm = samples.getFirst();
        ProcessSample last = samples.getLast();
        if (last.heapBytes() > warm.heapBytes() + Math.max(HEAP_SLACK_BYTES, warm.heapBytes() / 4)) {
            grew.add(String.format(Locale.ROOT, "heap %.1f -> %.1f MiB", warm.heapBytes() / 1048576.0, last.heapBytes() / 1048576.0));
        }
        if (last.threads() > warm.threads() + THREAD_SLACK) {
            grew.add("threads " + warm.threads() + " -> " + last.threads());
        }
        if (warm.openFiles() >= 0 && last.openFiles() > warm.openFiles() + FILE_SLACK) {
            grew.add("open files " + warm.openFiles() + " -> " + last.openFiles());
        }
        return grew;
    }

    /**
     * Prints the last line (every cycle completed, the slowest after the warm-up, flat or what grew) and gives the exit
     * status: 0 when flat, 1 when something grew.
     */
    public int finish() {
        List<String> grew = growth();
        out.printf(Locale.ROOT, "every cycle completed; slowest after the warm-up %.1f ms; %s%n", slowestAfterWarmUpNanos / 1e6,
                grew.isEmpty() ? "flat after the warm-up" : "grew after the warm-up: " + String.join(", ", grew));
        out.flush();
        return grew.isEmpty() ? 0 : 1;
    }
}
