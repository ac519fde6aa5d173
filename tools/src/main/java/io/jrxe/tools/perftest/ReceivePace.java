package io.jrxe.tools.perftest;

/**
 * How long a bandwidth server whose receive queue was just refilled may nap before it looks for completions:
 * half the time its posted receives would last at {@link #PEAK_MESSAGES_PER_SECOND}, within the bounds
 * of {@link RefillPace#bounded}.
 *
 * <p>Why nap: a server that waits for each message wakes once per message, and on two cores its wake-ups,
 * yields and clock reads take about a fifth of the machine from the NIC threads that deliver the messages
 * (send-bw -s 64: the server's program thread 22% of the CPU, its NIC thread 34%). After a nap the server
 * finds tens of completions at once and posts their receives again in one go.
 *
 * <p>Why a fixed peak rate, as {@link RefillPace}: a nap derived from the rate seen feeds on itself. jrxe and
 * kernel rxe deliver far fewer than four million messages a second, so at least half the receives are still
 * posted when the nap ends; for faster hardware use perftest's own tools, which busy-poll.
 */
final class ReceivePace {
    static final double PEAK_MESSAGES_PER_SECOND = 4e6;
    static final double NAP_SHARE_OF_QUEUE = 0.5;

    private ReceivePace() {
    }

    /** The nap for {@code posted} receives that wait for a message; 0 when too short to take. */
    static long napNanos(long posted) {
        return RefillPace.bounded(posted / PEAK_MESSAGES_PER_SECOND * 1e9 * NAP_SHARE_OF_QUEUE);
    }
}
