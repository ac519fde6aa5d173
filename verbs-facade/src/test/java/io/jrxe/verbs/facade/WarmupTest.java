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
}
