package io.jrxe.rnic.cc;

import io.jrxe.wire.time.NicTime;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pacer on a clock that the test moves by hand and whose timers fire a fixed time late, as a busy host's or an
 * emulated CPU's do: a QP with more to send than its rate allows still gets its rate, and one that sat idle gets no
 * burst for the time it left unused.
 */
class PacerTest {
    /** 1,000-byte packets at 8 Gbit/s: one every microsecond. */
    private static final int BYTES = 1_000;
    private static final double RATE = 8e9;
    private static final long SPACING = 1_000;

    /** Time moves only when the test fires the one pending timer, which comes {@code lateness} after its due time. */
    private static final class LateClock implements NicTime {
        private final long lateness;
        private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
        private long now;
        private long firesAt;

        LateClock(long lateness) {
            this.lateness = lateness;
        }

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void schedule(long delayNanos, Runnable task) {
            assertThat(pending).as("the pacer arms one wake at a time").isEmpty();
            firesAt = now + delayNanos + lateness;
            pending.add(task);
        }

        @Override
        public void execute(Runnable task) {
            task.run();
        }

        void fire() {
            now = firesAt;
            pending.remove().run();
        }
    }

    /** A QP that always has a packet ready: sends while the pacer lets it, then waits for its wake. */
    private static int sendWhileAllowed(Pacer pacer) {
        int sent = 0;
        while (pacer.mayTransmit()) {
            pacer.transmitted(BYTES, RATE);
            sent++;
        }
        return sent;
    }

    @Test
    void aQpWokenLateEveryTimeStillSendsAtItsRate() {
        LateClock clock = new LateClock(SPACING * 2 / 5);
        int[] sent = {0};
        Pacer[] pacer = new Pacer[1];
        pacer[0] = new Pacer(clock, () -> sent[0] += sendWhileAllowed(pacer[0]));
        sent[0] += sendWhileAllowed(pacer[0]);
        while (sent[0] < 10_000) {
            clock.fire();
        }
        // Without the lost time kept, each packet would take 1.4 µs: 14 ms for 10,000.
        assertThat(clock.nanoTime()).as("the time 10,000 packets took at one a microsecond, each wake 0.4 µs late")
                .isBetween(9_999 * SPACING, 10_001 * SPACING);
    }

    @Test
    void aWakeLaterThanAPacketsTimeLosesTheRestNotTheRate() {
        LateClock clock = new LateClock(SPACING * 5 / 2);
        int[] sent = {0};
        int[] mostAtOnce = {0};
        Pacer[] pacer = new Pacer[1];
        pacer[0] = new Pacer(clock, () -> {
            int n = sendWhileAllowed(pacer[0]);
            mostAtOnce[0] = Math.max(mostAtOnce[0], n);
            sent[0] += n;
        });
        sent[0] += sendWhileAllowed(pacer[0]);
        while (sent[0] < 1_000) {
            clock.fire();
        }
        assertThat(mostAtOnce[0]).as("packets sent at one wake: never more than two").isEqualTo(2);
        // Each wake comes 3.5 µs after the last packet and sends two: 1.75 µs a packet.
        assertThat(clock.nanoTime()).isBetween(999 * SPACING * 7 / 4, 1_001 * SPACING * 7 / 4);
    }

    @Test
    void aQpThatSatIdleSendsOnePacketNotABurst() {
        LateClock clock = new LateClock(0);
        Pacer pacer = new Pacer(clock, () -> { });
        assertThat(pacer.mayTransmit()).isTrue();
        pacer.transmitted(BYTES, RATE);
        clock.now += 100 * SPACING;  // the QP had nothing more to send for a hundred packets' time
        assertThat(sendWhileAllowed(pacer)).as("after the idle time").isEqualTo(1);
    }
}
