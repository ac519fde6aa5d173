package io.jrxe.rnic;

import io.jrxe.wire.time.NicTime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** A stand-in clock: queued tasks run when the test says, timers are only noted, time moves only when set. */
final class ManualClock implements NicTime {
    final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    final List<Long> timers = new ArrayList<>();
    long now = 1_000;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void schedule(long delayNanos, Runnable task) {
        timers.add(delayNanos);
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    void runAll() {
        Runnable r;
        while ((r = tasks.poll()) != null) {
            r.run();
        }
    }
}
