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
        String address = progress == Progress.INVOKER ? "127.0.8.41" : "127.0.8.42";
        EmulatedDevice device = Verbs.emulated().createUdp(DeviceConfig.of("jrxe-warm-" + progress.optionName(),
                InetAddress.getByName(address)), progress);
        try {
            assertThat(device.warmUp()).isEqualTo(Warmup.ROUNDS);
        } finally {
            Verbs.emulated().remove(device);
        }
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
