package io.jrxe.rnic.engine;

import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.AsyncEventType;

/**
 * What an engine may ask of the data path about a QP, and nothing more: run its task, or move it
 * to the error state (which flushes every engine's work). The engines never call each other; they
 * leave work in their own state and ask for the task.
 */
interface QpControl {
    /** Queues the QP's task on the NIC thread, once however often it is asked before it runs. */
    void schedule(QpEngine e);

    /**
     * The QP goes to the error state, posting {@code event} with {@code reason} (none when null), and
     * its outstanding work requests complete with WR_FLUSH_ERR.
     */
    void error(QpEngine e, AsyncEventType event, String reason);

    /**
     * No exception may escape an engine: the NIC thread serves every QP. One that does is a jrxe bug;
     * it is counted and reported as a DEVICE_FATAL event with its text, and the NIC goes on.
     */
    void engineError(String during, RuntimeException e);

    /** A QP moved to the error state outside the engines (its CQ overflowed): flushed on the NIC thread. */
    void flushLater(QueuePair qp);
}
