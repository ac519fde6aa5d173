package io.jrxe.wire.port.udp;

import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;

/**
 * How a NIC thread waits for work: after its last packet or task it keeps polling the socket
 * (epoll_wait with a zero timeout, yielding the CPU between polls) for a short window before it
 * blocks. A packet or doorbell that comes within the window is served without a thread wake-up,
 * and a doorbell rung while the loop polls costs the poster no eventfd write: on a request and
 * response exchange those two wake-ups were most of jrxe's latency over raw UDP. An idle device
 * blocks after the window, so it costs no CPU.
 */
final class SpinThenBlockStrategy implements SelectStrategy {
    /**
     * The window, in microseconds; 0 blocks at once, as Netty's default strategy does. 50, as before 2026-11-27:
     * a window of 200 moved more (send-bw -s 64 0.74-0.96 M messages/s against 0.68-0.76 in 5 alternate pairs), but
     * with it send-bw -s 64 -D 6 hung in 4 of 54 looped runs on a machine that paused threads for milliseconds (the
     * client's NIC kept work it neither sent nor timed; the cause is not found), and in none of 52 runs of the same
     * build with 50 (docs/benchmarks.md, "A send-bw -D that never ended").
     */
    static final long DEFAULT_SPIN_MICROS = Long.getLong("jrxe.nic.spinMicros", 50);

    private final long spinNanos;
    private long idleSince;
    private boolean idle;
    private boolean blocked;

    SpinThenBlockStrategy(long spinMicros) {
        this.spinNanos = spinMicros * 1_000;
    }

    @Override
    public int calculateStrategy(IntSupplier selectNow, boolean hasTasks) throws Exception {
        int ready = selectNow.get();
        if (ready > 0 || hasTasks || blocked) {
            // Work, or the first turn after a blocking wait (something woke the loop): the window starts again.
            idle = false;
            blocked = false;
            if (ready > 0 || hasTasks) {
                return ready;
            }
        }
        long now = System.nanoTime();
        if (!idle) {
            idle = true;
            idleSince = now;
        }
        if (now - idleSince < spinNanos) {
            Thread.yield();
            return SelectStrategy.CONTINUE;
        }
        blocked = true;
        return SelectStrategy.SELECT;
    }
}
