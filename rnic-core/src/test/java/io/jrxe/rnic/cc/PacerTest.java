package io.jrxe.rnic.cc;

import io.jrxe.wire.time.NicTime;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pacer on a clock that the test moves by hand and whose timers fire a fixed time late, as a busy host's or an
 * emulated CPU's do: a QP with more to send than its rate allows still gets its rate, and one that sat idle gets no
 * burst for the time it left unused beyond its clock's timer granularity.
 */
class PacerTest {
    /** 1,000-byte packets at 8 Gbit/s: one every microsecond. */
    private static final int BYTES = 1_000;
    private static final double RATE = 8e9;
    private static final long SPACING = 1_000;

    /** Time moves only when the test fires the one pending timer, which comes {@code lateness} after its due time. */
    private static final class LateClock implements NicTime {
        private final long lateness;
        private final long granularity;
        private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
        private long now;
        private long firesAt;

        /** @param granularity how late it says its timers may fire (0: exact, as virtual time's) */
        LateClock(long lateness, long granularity) {
            this.lateness = lateness;
            this.granularity = granularity;
        }

        @Override
        public long timerGranularityNanos() {
            return granularity;
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

    /** A QP that always has a packet ready, on {@code clock}: sends at every wake until {@code packets} went. */
    private static final class GreedyQp {
        private final Pacer pacer;
        private int sent;
        private int mostAtOnce;

        GreedyQp(LateClock clock, int packets) {
            pacer = new Pacer(clock, this::woken);
            sent = sendWhileAllowed(pacer);
            while (sent < packets) {
                clock.fire();
            }
        }

        private void woken() {
            int n = sendWhileAllowed(pacer);
            mostAtOnce = Math.max(mostAtOnce, n);
            sent += n;
        }
    }

    @Test
    void aQpWokenLateEveryTimeStillSendsAtItsRate() {
        LateClock clock = new LateClock(SPACING * 2 / 5, SPACING * 2 / 5);
        new GreedyQp(clock, 10_000);
        // Without the lost time kept, each packet would take 1.4 µs: 14 ms for 10,000.
        assertThat(clock.nanoTime()).as("the time 10,000 packets took at one a microsecond, each wake 0.4 µs late")
                .isBetween(9_999 * SPACING, 10_001 * SPACING);
    }

    @Test
    void aWakeLaterThanAPacketsTimeLosesTheRestNotTheRate() {
        LateClock clock = new LateClock(SPACING * 5 / 2, SPACING / 2); // later than it owns to
        GreedyQp qp = new GreedyQp(clock, 1_000);
        assertThat(qp.mostAtOnce).as("packets sent at one wake: never more than two").isEqualTo(2);
        // Each wake comes 3.5 µs after the last packet and sends two: 1.75 µs a packet.
        assertThat(clock.nanoTime()).isBetween(999 * SPACING * 7 / 4, 1_001 * SPACING * 7 / 4);
    }

    /** A real thread's clock: wakes 40 packet times late, within the 50 its clock owns to. */
    @Test
    void aQpWhoseWakesComeWithinItsClocksGranularityKeepsItsRate() {
        LateClock clock = new LateClock(40 * SPACING, 50 * SPACING);
        GreedyQp qp = new GreedyQp(clock, 10_000);
        // Keeping one packet's time only, each wake would send two packets: 20.5 µs a packet, 205 ms for 10,000.
        assertThat(clock.nanoTime()).as("the time 10,000 packets took at one a microsecond, each wake 40 µs late")
                .isBetween(9_999 * SPACING, 10_001 * SPACING + 41 * SPACING);
        assertThat(qp.mostAtOnce).as("packets sent at one wake: the lateness's worth and the packet due").isBetween(40, 41);
    }

    @Test
    void anIdleQpsBurstIsAtMostItsClocksGranularitysWorth() {
        LateClock clock = new LateClock(0, 50 * SPACING);
        Pacer pacer = new Pacer(clock, () -> { });
        assertThat(pacer.mayTransmit()).isTrue();
        pacer.transmitted(BYTES, RATE);
        clock.now += 1_000 * SPACING;  // idle for a thousand packets' time
        assertThat(sendWhileAllowed(pacer)).as("after the idle time").isEqualTo(51);
    }

    /** Virtual time: the fabric's QPs see an exact rate limiter. */
    @Test
    void onAnExactClockEveryPacketWaitsItsWholeTime() {
        LateClock clock = new LateClock(0, 0);
        GreedyQp qp = new GreedyQp(clock, 1_000);
        assertThat(qp.mostAtOnce).isEqualTo(1);
        assertThat(clock.nanoTime()).isEqualTo(999 * SPACING);
    }

    @Test
    void aQpThatSatIdleSendsOnePacketNotABurst() {
        LateClock clock = new LateClock(0, 0);
        Pacer pacer = new Pacer(clock, () -> { });
        assertThat(pacer.mayTransmit()).isTrue();
        pacer.transmitted(BYTES, RATE);
        clock.now += 100 * SPACING;  // the QP had nothing more to send for a hundred packets' time
        assertThat(sendWhileAllowed(pacer)).as("after the idle time").isEqualTo(1);
    }
}
