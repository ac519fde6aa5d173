package io.jrxe.tools.common;

import io.jrxe.verbs.WorkCompletion;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for completions the way the benchmark tools do, by busy-polling the CQ (or, with a completion
 * channel, by sleeping until the CQ's event), but never for ever: when nothing completes for the timeout the
 * wait fails with a message that says the peer stopped answering. The busy poll spins briefly, then yields for up to
 * {@link #YIELD_NANOS}, then parks for a few microseconds at a time, longer as the wait goes on: the NIC that makes the
 * completions is a thread of this machine too, and must not be starved of a CPU by the very loop that waits for it.
 */
public final class CompletionWaiter {
    /**
     * How long a wait yields the CPU before it parks. A yield hands the core to a NIC thread that is ready to run on it
     * and costs nothing when none is; a park costs a wake-up, which on a busy 2-core machine comes tens of
     * microseconds late. A bandwidth test waits for completions every window (a 64-byte send-bw every 100 messages,
     * about 150 µs of the NIC's work), and a wait that parks after a few yields leaves the NIC's queue dry during
     * each wake-up: yielding for this long covers a window's wait. Longer waits (a full queue of large messages, a
     * peer that went quiet) still end up parked.
     */
    static final long YIELD_NANOS = 1_000_000;
    private static final long PARK_NANOS = 20_000;
    /** Parks double after this much parking, up to {@link #MAX_PARK_DOUBLINGS} times (20, 40, then 80 us). */
    private static final long PARK_DOUBLING_NANOS = 160_000;
    private static final int MAX_PARK_DOUBLINGS = 2;

    private final Cq cq;
    /** How this waiter's parks sleep on its CQ, so that a jrxe NIC wakes it as the completion comes. */
    private final CqSleeper sleeper;
    private final CompChannel channel;
    private final long timeoutNanos;
    private final String what;
    private final boolean neverPark;
    /** A latency waiter's way to wait, which learns whether this thread shares its CPU; null for the others. */
    private final BusyWait busyWait;

    /**
     * @param channel null to busy-poll; else the CQ must be armed (requestNotify) before the first wait
     * @param what    what is being waited for, for the timeout message ("the echo of message 12", ...)
     */
    public CompletionWaiter(Cq cq, CompChannel channel, int timeoutMillis, String what) {
        this(cq, CqSleeper.of(cq), channel, timeoutMillis, what, false);
    }

    /**
     * A waiter for latency tests, which busy-poll as perftest's do: it spins and yields but never parks,
     * since a park of tens of microseconds would be most of a round trip.
     */
    public static CompletionWaiter forLatency(Cq cq, CompChannel channel, int timeoutMillis, String what) {
        return new CompletionWaiter(cq, CqSleeper.NONE, channel, timeoutMillis, what, true);
    }

    /** @param sleeper how the parks sleep on the CQ ({@link CqSleeper#of}, or a test's) */
    CompletionWaiter(Cq cq, CqSleeper sleeper, CompChannel channel, int timeoutMillis, String what, boolean neverPark) {
        this.neverPark = neverPark;
        this.busyWait = neverPark ? new BusyWait() : null;
        this.cq = cq;
        this.sleeper = sleeper;
        this.channel = channel;
        this.timeoutNanos = timeoutMillis * 1_000_000L;
        this.what = what;
    }

    /**
     * Polls up to wcs.length completions. Busy-polling returns at least one; with a channel this returns after
     * one event, re-arming the CQ, with whatever the CQ then holds (possibly none, as ibv_rc_pingpong allows).
     */
    public int await(WorkCompletion[] wcs) {
        if (channel != null) {
            return awaitEvent(wcs);
        }
        int n = cq.poll(wcs);
        if (n > 0) {
            return n;
        }
        long start = System.nanoTime();
        int spins = 0;
        while (true) {
            n = cq.poll(wcs);
            if (n > 0) {
                return n;
            }
            if (neverPark ? busyWait.idle(++spins, start, timeoutNanos) : idle(sleeper, ++spins, start, timeoutNanos)) {
                throw timeout();
            }
        }
    }

    /**
     * As {@link #await(WorkCompletion[])}, but a busy-polling waiter first naps for {@code napNanos} when no
     * completion is there yet: a poster whose queue holds milliseconds of work need not wake for each completion.
     */
    public int await(WorkCompletion[] wcs, long napNanos) {
        if (channel == null && napNanos > 0 && !neverPark) {
            int n = cq.poll(wcs);
            if (n > 0) {
                return n;
            }
            nap(napNanos);
        }
        return await(wcs);
    }

    /**
     * Sleeps napNanos, or until interrupted. One parkNanos is not enough: it returns at once when an earlier
     * unpark of this thread left its permit (a future completed just after its waiter gave up), and may return
     * early for no reason at all.
     */
    public static void nap(long napNanos) {
        long wakeAt = System.nanoTime() + napNanos;
        for (long left = napNanos; left > 0 && !Thread.currentThread().isInterrupted(); left = wakeAt - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private int awaitEvent(WorkCompletion[] wcs) {
        try {
            Cq fired = channel.awaitEvent(timeoutNanos, TimeUnit.NANOSECONDS);
            if (fired == null) {
                throw timeout();
            }
            fired.requestNotify(false);
            return cq.poll(wcs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while waiting for " + what);
        } catch (VerbsException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    public UserError timeout() {
        return new UserError(String.format("no completion for %s while waiting for %s: the peer stopped answering",
                OobSocket.seconds((int) (timeoutNanos / 1_000_000L)), what));
    }

    /** A spin-then-yield idle step for loops that poll memory instead of a CQ; true once the timeout passed. */
    public static boolean idle(int spins, long startNanos, long timeoutNanos) {
        return idle(CqSleeper.NONE, spins, startNanos, timeoutNanos);
    }

    /**
     * As {@link #idle(int, long, long)} for a loop that waits on one CQ: its parks sleep on the CQ through
     * {@code sleeper} ({@link CqSleeper#of} the CQ), which a jrxe NIC ends as soon as it writes a completion there.
     * A timed park alone oversleeps by the kernel's timer slack (50 us): long enough for a bandwidth test's send
     * queue to run dry.
     *
     * @param startNanos when the wait began (System.nanoTime): it yields for {@link #YIELD_NANOS} from then, then parks
     */
    public static boolean idle(CqSleeper sleeper, int spins, long startNanos, long timeoutNanos) {
        if (spins < BusyWait.SPINS_BEFORE_YIELD) { // a parking wait spins as long as a latency wait first
            Thread.onSpinWait();
            return false;
        }
        long waited = System.nanoTime() - startNanos;
        if (waited < YIELD_NANOS) {
            Thread.yield();
        } else {
            // Parks grow from 20 us to 80 us: a long wait (a queue of large messages, a quiet peer) then costs a
            // few wake-ups instead of tens of thousands, and leaves the CPU to the NIC threads that end it.
            long nanos = PARK_NANOS << Math.min((waited - YIELD_NANOS) / PARK_DOUBLING_NANOS, MAX_PARK_DOUBLINGS);
            if (!sleeper.sleep(nanos)) {
                LockSupport.parkNanos(nanos);
            }
        }
        return waited > timeoutNanos;
    }
}
