package io.jrxe.wire.port.udp;

import io.jrxe.verbs.idle.PollWindow;
import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;

/**
 * How a NIC thread waits for work, as Netty's select strategy: after its last packet or task it keeps
 * polling the socket (epoll_wait with a zero timeout, yielding the CPU between polls) for its
 * {@link PollWindow} before it blocks. A packet or doorbell that comes within the window is served
 * without a thread wake-up, and a doorbell rung while the loop polls costs the poster no eventfd write:
 * on a request and response exchange those two wake-ups would be most of jrxe's latency over raw UDP.
 */
final class SpinThenBlockStrategy implements SelectStrategy {
    private final PollWindow window;
    private boolean blocked;

    SpinThenBlockStrategy(long windowNanos) {
        this.window = new PollWindow(windowNanos);
    }

    @Override
    public int calculateStrategy(IntSupplier selectNow, boolean hasTasks) throws Exception {
        int ready = selectNow.get();
        if (ready > 0 || hasTasks || blocked) {
            // Work, or the first turn after a blocking wait (something woke the loop): the window starts again.
            window.worked();
            blocked = false;
            if (ready > 0 || hasTasks) {
                return ready;
            }
        }
        if (window.idle(System.nanoTime())) {
            return SelectStrategy.CONTINUE;
        }
        blocked = true;
        return SelectStrategy.SELECT;
    }
}
