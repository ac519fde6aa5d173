package io.jrxe.verbs.emulated;

/**
 * Which thread runs a jrxe NIC on a real wire (UDP or the shared-memory rings).
 */
public enum Progress {
    /**
     * A NIC thread of its own (on UDP a Netty event loop: epoll, batched sends, UDP GSO and GRO; on
     * the shared-memory wire the loop's standby thread, all the time): the program only posts and
     * polls. Best for bandwidth, and for programs that do not poll.
     */
    NIC_THREAD,
    /**
     * The program's thread runs the NIC whenever it polls a CQ, posts or calls
     * {@link EmulatedDevice#progress()}; a standby thread takes over when it has not done so
     * for a moment. One runnable thread per busy-polling program instead of two: best for
     * latency on a machine with few cores.
     */
    INVOKER;

    /** The name on the command line ({@code thread}, {@code invoker}). */
    public String optionName() {
        return this == NIC_THREAD ? "thread" : "invoker";
    }
}
