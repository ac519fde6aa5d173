package io.jrxe.verbs;

import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.verbs.idle.CompletionPoll;

import java.util.concurrent.TimeUnit;

/**
 * A completion queue (ibv_cq). Polling fills the caller's reusable objects: no allocation.
 *
 * <p>Three ways to wait for a completion: {@link #poll(WorkCompletion[], long, TimeUnit)} polls until one comes or
 * the time passes, spinning briefly, then yielding, then parking (the library's {@link BackoffIdle}); a
 * {@link CompChannel} sleeps until the CQ's event ({@link CompChannel#poll}); {@link CompletionFutures} completes a
 * future per work request from a thread of its own. Polling is for one thread at a time: two threads that poll one
 * CQ each get some of its completions.
 */
public interface Cq extends AutoCloseable {
    /** ibv_poll_cq: fills up to wcs.length completions, returns how many (0 when none is there now). */
    int poll(WorkCompletion[] wcs);

    /**
     * Polls until at least one completion is there or {@code timeout} passes: spins briefly, then yields the CPU,
     * then parks for growing moments (a jrxe CQ wakes its poller as soon as a completion comes).
     *
     * @return how many completions were filled in; 0 when the time passed
     * @throws InterruptedException when the thread was interrupted while it waited
     */
    default int poll(WorkCompletion[] wcs, long timeout, TimeUnit unit) throws InterruptedException {
        return CompletionPoll.poll(this, wcs, unit.toNanos(timeout), BackoffIdle.PARK_ONLY_WAIT);
    }

    /** ibv_req_notify_cq. */
    void requestNotify(boolean solicitedOnly);

    /** How many completions the CQ holds (at least what was asked for). */
    int capacity();

    /** ibv_resize_cq: at least {@code entries} entries, keeping the completions it holds. */
    void resize(int entries) throws VerbsException;

    @Override
    void close() throws VerbsException;
}
