package io.jrxe.verbs;

import io.jrxe.verbs.idle.CompletionPoll;

import java.util.concurrent.TimeUnit;

/**
 * A completion channel (ibv_comp_channel): a thread sleeps on it until a CQ made with it gets a completion, so
 * that waiting costs no CPU.
 *
 * <p>The rule, as libibverbs': a CQ gives one event after it is armed ({@link Cq#requestNotify}) and a completion
 * comes, and then none until it is armed again. So a waiter arms, polls once more (a completion that came before
 * the arm gives no event), and only then sleeps; after the event it arms again before it polls. {@link #poll} does
 * exactly that. Each event is acknowledged as {@link #awaitEvent} returns it (ibv_ack_cq_events is called for the
 * program), so a CQ can be destroyed whenever its events were taken; there is nothing else to acknowledge.
 */
public interface CompChannel extends AutoCloseable {
    /**
     * The CQ whose event fired, or null when the timeout passed first (ibv_get_cq_event, with the event
     * acknowledged). The CQ is not armed again: arm it before polling it.
     */
    Cq awaitEvent(long timeout, TimeUnit unit) throws VerbsException, InterruptedException;

    /**
     * Waits without spinning for completions of {@code cq}, a CQ of this channel and the only one it serves: polls;
     * when none is there, arms the CQ, polls again, and sleeps until its event, until at least one completion came
     * or {@code timeout} passed.
     *
     * @return how many completions were filled in; 0 when the time passed
     */
    default int poll(Cq cq, WorkCompletion[] wcs, long timeout, TimeUnit unit) throws VerbsException, InterruptedException {
        return CompletionPoll.byEvents(this, cq, wcs, unit.toNanos(timeout));
    }

    @Override
    void close() throws VerbsException;
}
