package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.PortWaiter;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * Waits for a datagram on a polled UDP port's sockets: its own, and each multicast group's socket as it is joined.
 * A datagram wakes the waiting thread at once, as it would a thread blocked in recv.
 */
final class SelectorWaiter implements PortWaiter {
    private final Selector selector;

    SelectorWaiter(DatagramChannel receiver) throws IOException {
        selector = Selector.open();
        try {
            receiver.register(selector, SelectionKey.OP_READ);
        } catch (IOException | RuntimeException e) {
            selector.close();
            throw e;
        }
    }

    /**
     * Also wakes for a group's socket. Registering does not wait for a select in progress (JDK 11 and later); the
     * wake-up makes that select start again with the new socket.
     */
    void watch(DatagramChannel groupSocket) {
        try {
            groupSocket.register(selector, SelectionKey.OP_READ);
        } catch (ClosedChannelException | ClosedSelectorException e) {
            return; // the group was left, or the loop closed, before it could be watched
        }
        selector.wakeup();
    }

    @Override
    public void await(long timeoutNanos) throws IOException {
        // select's timeout is in milliseconds: round up, a timer never fires early
        selector.select(timeoutNanos == 0 ? 0 : Math.max(1, (timeoutNanos + 999_999) / 1_000_000));
        selector.selectedKeys().clear();
    }

    @Override
    public void wake() {
        selector.wakeup();
    }

    @Override
    public void close() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing: the selector's descriptors are released either way
        }
    }
}
