package io.jrxe.rnic.memory;

import io.jrxe.wire.time.NicTime;

import java.util.ArrayList;
import java.util.List;

/** A stand-in clock for the paging tests: timers and tasks wait, with their delays noted, until the test fires them. */
final class HeldTimers implements NicTime {
    final List<Runnable> due = new ArrayList<>();
    final List<Long> delays = new ArrayList<>();

    @Override
    public long nanoTime() {
        return 0;
    }

    @Override
    public void schedule(long delayNanos, Runnable task) {
        delays.add(delayNanos);
        due.add(task);
    }

    @Override
    public void execute(Runnable task) {
        schedule(0, task);
    }

    void fire() {
        List<Runnable> now = new ArrayList<>(due);
        due.clear();
        now.forEach(Runnable::run);
    }
}
