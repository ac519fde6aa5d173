package io.jrxe.wire.port.udp;

import io.jrxe.wire.time.NicTime;
import io.netty.channel.EventLoop;

import java.util.concurrent.TimeUnit;

/** A device's time on real sockets: the monotonic clock and its event loop's timers. */
public final class EventLoopTime implements NicTime {
    /**
     * Linux lets a thread's timer fire up to 50 us late (its default timer slack) and the loop runs its timers between
     * other work; twice that covers both on a busy host.
     */
    public static final long REAL_TIMER_GRANULARITY_NANOS = 100_000;
    private final EventLoop loop;

    public EventLoopTime(EventLoop loop) {
        this.loop = loop;
    }

    public EventLoop loop() {
        return loop;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void schedule(long delayNanos, Runnable task) {
        loop.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void execute(Runnable task) {
        loop.execute(task);
    }

    @Override
    public long timerGranularityNanos() {
        return REAL_TIMER_GRANULARITY_NANOS;
    }
}
