package io.jrxe.tools.common;

import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.verbs.idle.CompletionPoll;
import io.jrxe.verbs.idle.IdleStrategy;
import io.jrxe.verbs.idle.LatencyIdle;
import io.jrxe.verbs.idle.Nap;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;

import java.util.concurrent.TimeUnit;

/**
 * Waits for completions the way the benchmark tools do, by polling the CQ (or, with a completion channel, by
 * sleeping until the CQ's event), but never for ever: when nothing completes for the timeout the wait fails with
 * a message that says the peer stopped answering. How it spends the time between polls is one of the library's
 * idle strategies: a latency test's {@link LatencyIdle} (spin and yield, never sleep), everything else's
 * {@link BackoffIdle} (spin, yield, then park on the CQ).
 */
public final class CompletionWaiter {
    private final Cq cq;
    private final CompChannel channel;
    private final long timeoutNanos;
    private final String what;
    private final boolean latency;
    private final IdleStrategy idle;

    /**
     * @param channel null to busy-poll; else the CQ must be armed (requestNotify) before the first wait
     * @param what    what is being waited for, for the timeout message ("the echo of message 12", ...)
     */
    public CompletionWaiter(Cq cq, CompChannel channel, int timeoutMillis, String what) {
        this(cq, CqParker.of(cq), channel, timeoutMillis, what, false);
    }

    /**
     * A waiter for latency tests, which busy-poll as perftest's do: it spins and yields but never parks,
     * since a park of tens of microseconds would be most of a round trip.
     */
    public static CompletionWaiter forLatency(Cq cq, CompChannel channel, int timeoutMillis, String what) {
        return new CompletionWaiter(cq, CqParker.NONE, channel, timeoutMillis, what, true);
    }

    /** @param sleeper how a backing-off wait's parks sleep on the CQ ({@link CqParker#of}, or a test's) */
    CompletionWaiter(Cq cq, BackoffIdle.Parker sleeper, CompChannel channel, int timeoutMillis, String what,
                     boolean latency) {
        this.latency = latency;
        this.idle = latency ? new LatencyIdle() : new BackoffIdle(sleeper);
        this.cq = cq;
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
        try {
            int n = CompletionPoll.poll(cq, wcs, timeoutNanos, idle);
            if (n == 0) {
                throw timeout();
            }
            return n;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while waiting for " + what);
        }
    }

    /**
     * As {@link #await(WorkCompletion[])}, but a busy-polling waiter first naps for {@code napNanos} when no
     * completion is there yet: a poster whose queue holds milliseconds of work need not wake for each completion.
     */
    public int await(WorkCompletion[] wcs, long napNanos) {
        if (channel == null && napNanos > 0 && !latency) {
            int n = cq.poll(wcs);
            if (n > 0) {
                return n;
            }
            Nap.forNanos(napNanos);
        }
        return await(wcs);
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
}
