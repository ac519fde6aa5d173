package io.jrxe.wire.port.udp;

import io.jrxe.wire.time.NicTime;
import io.netty.channel.EventLoop;

import java.util.concurrent.TimeUnit;

/** A device's time on real sockets: the monotonic clock and its event loop's timers. */
public final class EventLoopTime implements NicTime {
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
        return REAL_THREAD_TIMER_GRANULARITY_NANOS;
    }
}
