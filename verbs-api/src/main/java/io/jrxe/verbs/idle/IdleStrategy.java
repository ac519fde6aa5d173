package io.jrxe.verbs.idle;

/**
 * One idle step of a loop that polls for something (a completion, a flag) and found nothing. Stateful:
 * one per waiting thread, not thread-safe.
 */
public interface IdleStrategy {
    /**
     * Waits a little, as the strategy's shape says for this many looks into the wait.
     *
     * @param looks      the looks so far in this wait, counting this one from 1
     * @param startNanos when the wait began (System.nanoTime)
     * @return true once {@code timeoutNanos} have passed since {@code startNanos}: the caller gives up
     */
    boolean idle(int looks, long startNanos, long timeoutNanos);
}
