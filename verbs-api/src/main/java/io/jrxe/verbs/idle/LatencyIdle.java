package io.jrxe.verbs.idle;

/**
 * How a latency loop waits between two looks at what it waits for, without ever sleeping: it spins, then
 * yields its CPU at every look. One per waiting thread; not thread-safe.
 *
 * <p>It spins {@link #SPINS_BEFORE_YIELD} looks first, so that a thread with a CPU of its own keeps it. But the
 * scheduler sometimes puts both threads of an exchange on one CPU and leaves the other CPU idle (loopback wakes
 * the receiver of a handshake on its sender's CPU, and the kernel moves a thread that ran within the last half
 * millisecond only after a few failed balancing passes). Each side would then spin all its looks (about 32 µs,
 * since each look runs the NIC, a system call) before it let the other answer: a message would take 32-35 µs
 * instead of 5-7.
 *
 * <p>A yield tells when that happens. With the CPU to itself a yield returns within a microsecond or two; behind
 * the other side of the exchange it returns after that side's turn, tens of microseconds. After
 * {@link #SHARED_YIELDS_IN_A_ROW} such yields in a row the wait yields after {@link #SHARED_SPINS} looks, so
 * that the other side answers at once; the first yield that is not such a turn goes back to spinning longer.
 * Yields that come back after {@link #LONGEST_PEER_TURN_NANOS} or more do not count: that was a thread with
 * work of its own (the JIT's compiler, a kernel worker), and yielding to it sooner would only give it more of
 * the CPU.
 */
public class LatencyIdle implements IdleStrategy {
    /** Looks a wait spins before it yields, when the CPU is its own. */
    public static final int SPINS_BEFORE_YIELD = 64;
    static final int SHARED_SPINS = 4;
    /** Longer than a yield with the CPU to itself, shorter than a turn of another thread and two context switches. */
    static final long SHORTEST_PEER_TURN_NANOS = 5_000;
    /** Three times a whole turn of 64 looks: the peer's turn ends in its own wait's first yield. */
    static final long LONGEST_PEER_TURN_NANOS = 100_000;
    /**
     * Enough to leave alone the short runs of slow yields that busy neighbours (a compiler thread, a kernel worker)
     * cause now and then, which a shorter run would take for a shared CPU, yielding sooner and lengthening the
     * tail instead; few enough that a shared CPU costs only 8 slow messages.
     */
    static final int SHARED_YIELDS_IN_A_ROW = 8;

    private int spinsBeforeYield = SPINS_BEFORE_YIELD;
    private int peerTurnsInARow;

    /** A wait that starts out spinning {@link #SPINS_BEFORE_YIELD} looks before each yield. */
    public LatencyIdle() {
    }

    /** Spins, or yields and learns from how long the yield took whether the CPU is shared. */
    @Override
    public boolean idle(int looks, long startNanos, long timeoutNanos) {
        if (looks < spinsBeforeYield) {
            Thread.onSpinWait();
            return false;
        }
        long before = nanoTime();
        yieldCpu();
        long after = nanoTime();
        long took = after - before;
        boolean peersTurn = took > SHORTEST_PEER_TURN_NANOS && took < LONGEST_PEER_TURN_NANOS;
        peerTurnsInARow = peersTurn ? Math.min(peerTurnsInARow + 1, SHARED_YIELDS_IN_A_ROW) : 0;
        spinsBeforeYield = peerTurnsInARow == SHARED_YIELDS_IN_A_ROW ? SHARED_SPINS : SPINS_BEFORE_YIELD;
        return (looks & 0x3F) == 0 && after - startNanos > timeoutNanos;
    }

    /** System.nanoTime; a test's subclass tells its own time (none is loaded outside tests: the JIT inlines this). */
    long nanoTime() {
        return System.nanoTime();
    }

    /** Thread.yield; a test's subclass makes its yields as slow as it needs. */
    void yieldCpu() {
        Thread.yield();
    }

    /** How many looks a wait now spins before it yields. */
    int spinsBeforeYield() {
        return spinsBeforeYield;
    }
}
