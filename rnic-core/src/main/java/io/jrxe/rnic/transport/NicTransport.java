package io.jrxe.rnic.transport;

import io.jrxe.rnic.NicExecutor;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.InvokerLoop;
import io.jrxe.wire.time.NicTime;

/**
 * The NIC's transport part: the port its packets leave and arrive through and what runs the NIC
 * (a NIC thread of its own, the program's thread through an invoker, or the test's thread on a
 * simulated network). A NIC gets it from its context; the NIC closes it when it is closed.
 *
 * <p>Made by {@link NicThreadTransport#bindUdp}, {@link InvokedTransport#bindUdp}, {@link InvokedTransport#bindShm},
 * {@link SimulatedTransport#attach} and {@link ControlPathOnly#inline()}, or by a test with a
 * stand-in port.
 */
public interface NicTransport extends AutoCloseable {
    /** The port, or null for a device with no network (its control path only). */
    PacketPort port();

    /** The clock and the timers of whatever runs the NIC. */
    NicTime time();

    /** Where control verbs run: on the NIC's thread, the caller waiting. */
    NicExecutor executor();

    /**
     * Whether the NIC may run on another thread than the one that makes a verbs call (a NIC thread, an invoker's
     * standby thread): then the memory it is given must be reachable from any thread. False for a NIC that only
     * the caller's thread runs (a simulated network, a control path only).
     */
    default boolean nicRunsElsewhere() {
        return true;
    }

    /** The loop a program's thread runs the NIC through, or null when something else runs it. */
    default InvokerLoop invoker() {
        return null;
    }

    /** Releases the port and whatever runs the NIC; not from the NIC's thread. */
    @Override
    void close();
}
