package io.jrxe.tools.perftest;

/**
 * perftest's duration mode (-D): of DURATION seconds only the middle is measured; the first and the
 * last MARGIN seconds (-f, by default a quarter of the duration each) run but are not counted. The
 * start is the connection's ramp-up and, for jrxe, the JIT compiling the paths it had not yet seen;
 * the end is the drain of the work still in flight. The report's rate is what completed inside the
 * window, over the window's length as the loop observed it.
 */
final class SampleWindow {
    private static final long NANOS = 1_000_000_000L;

    private final long opensAt;
    private final long closesAt;
    private final long endsAt;
    private boolean open;
    private boolean closed;
    private long openedAt;
    private long closedAt;
    private long counted;

    private SampleWindow(long start, int durationSeconds, int marginSeconds) {
        this.opensAt = start + marginSeconds * NANOS;
        this.closesAt = start + (durationSeconds - marginSeconds) * NANOS;
        this.endsAt = start + durationSeconds * NANOS;
    }

    /** A window over [start + margin, start + duration - margin); the run ends at start + duration. */
    static SampleWindow from(long startNanos, int durationSeconds, int marginSeconds) {
        if (durationSeconds <= 2 * marginSeconds || marginSeconds < 0) {
            throw new IllegalArgumentException("duration " + durationSeconds + " s must exceed twice the margin " + marginSeconds + " s");
        }
        return new SampleWindow(startNanos, durationSeconds, marginSeconds);
    }

    /** Moves the window along to {@code now}; true once the whole duration is over. */
    boolean observe(long now) {
        if (!open && now - opensAt >= 0) {
            open = true;
            openedAt = now;
        }
        if (open && !closed && now - closesAt >= 0) {
            closed = true;
            closedAt = now;
        }
        return now - endsAt >= 0;
    }

    /** Counts {@code n} completed operations if the window is open now (as last observed). */
    void count(long n) {
        if (open && !closed) {
            counted += n;
        }
    }

    long counted() {
        return counted;
    }

    /** The window's length in seconds (up to {@code now} if the run stopped before it closed). */
    double seconds(long now) {
        if (!open) {
            return 0;
        }
        return ((closed ? closedAt : now) - openedAt) / 1e9;
    }
}
