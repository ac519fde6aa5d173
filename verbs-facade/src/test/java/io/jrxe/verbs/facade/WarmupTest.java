package io.jrxe.verbs.facade;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.verbs.emulated.Warmup;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

class WarmupTest {
    /** Every round completes, the exchange waited for on a completion channel included, whichever thread runs the NIC. */
    @ParameterizedTest
    @EnumSource(Progress.class)
    void everyRoundCompletesItsWorkRequestsAndItsEventDrivenSend(Progress progress) throws Exception {
        EmulatedDevice device = device("jrxe-warm-", progress, "127.0.8.41", "127.0.8.42");
        try {
            assertThat(device.warmUp()).isEqualTo(Warmup.ROUNDS);
        } finally {
            Verbs.emulated().remove(device);
        }
    }

    /**
     * A benchmark's warm-up also sends before the receives are there, so that the NAK branches are compiled before
     * the measurement instead of at its first RNR NAK: each round waits for an RNR NAK before it posts the receives,
     * and every round's work still completes. (The second SEND's PSN sequence NAK is not asserted: a resend may find
     * the receives posted already.)
     */
    @ParameterizedTest
    @EnumSource(Progress.class)
    void aBenchmarksWarmUpMeetsRnrNaksAndStillCompletesEveryRound(Progress progress) throws Exception {
        EmulatedDevice device = device("jrxe-warm-nak-", progress, "127.0.8.44", "127.0.8.45");
        try (var ctx = device.open()) {
            Warmup.Options benchmark = new Warmup.Options(1, null, Warmup.Options.DEFAULT.waits());
            assertThat(Warmup.run(device, ctx, benchmark)).isEqualTo(Warmup.ROUNDS);
            assertThat(ctx.counters().get("rcvd_rnr_err")).as("RNR NAKs the requester took").isGreaterThanOrEqualTo(Warmup.ROUNDS);
            assertThat(ctx.counters().get("send_rnr_err")).as("RNR NAKs the responder sent").isGreaterThanOrEqualTo(Warmup.ROUNDS);
            assertThat(ctx.counters()).containsEntry("retry_rnr_exceeded_err", 0L);
        } finally {
            Verbs.emulated().remove(device);
        }
    }

    private static EmulatedDevice device(String namePrefix, Progress progress, String invokedAddress,
                                         String threadAddress) throws Exception {
        String address = progress == Progress.INVOKER ? invokedAddress : threadAddress;
        return Verbs.emulated().createUdp(DeviceConfig.of(namePrefix + progress.optionName(), InetAddress.getByName(address)),
                progress);
    }

    /**
     * A device paired with another on one address by UDP ports sends everything to that device, its own GID
     * included: its warm-up, QP to QP on itself, would land on the peer. It is skipped: nothing reaches the peer.
     */
    @org.junit.jupiter.api.Test
    void aDevicePairedOnOneAddressByPortsSkipsItsWarmUp() throws Exception {
        InetAddress shared = InetAddress.getByName("127.0.8.43");
        EmulatedDevice a = Verbs.emulated().createUdp(DeviceConfig.of("jrxe-warm-pa", shared).withUdpPorts(4791, 4792));
        EmulatedDevice b = Verbs.emulated().createUdp(DeviceConfig.of("jrxe-warm-pb", shared).withUdpPorts(4792, 4791));
        try (var ctxB = b.open()) {
            assertThat(a.warmUp()).isZero();
            assertThat(ctxB.counters()).as("what reached the peer, received or dropped").allSatisfy((name, n) -> assertThat(n).as(name).isZero());
            assertThat(b.warmUp()).isZero();
        } finally {
            Verbs.emulated().remove(a);
            Verbs.emulated().remove(b);
        }
    }
}
