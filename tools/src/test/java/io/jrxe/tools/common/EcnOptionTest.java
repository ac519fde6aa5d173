package io.jrxe.tools.common;

import io.jrxe.tools.UserError;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** --ecn: a command's jrxe NIC made ECN-capable (ECT(0) out, the ECN field read in); off by default; not for rxe0. */
class EcnOptionTest {
    private static DeviceOptions parse(String... args) {
        DeviceOptions o = new DeviceOptions();
        new CommandLine(o).parseArgs(args);
        return o;
    }

    private static boolean ecnCapable(DeviceOptions o) {
        try (LocalDevice d = EmulatedLocalDevice.open(o, new PrintWriter(new StringWriter()))) {
            return ((EmulatedLocalDevice) d).device().nic().config().ecnCapable();
        }
    }

    @Test
    void theNicIsEcnCapableOnlyWhenAsked() {
        assertThat(ecnCapable(parse("--addr", "127.0.61.21"))).isFalse();
        assertThat(ecnCapable(parse("--addr", "127.0.61.22", "--ecn"))).isTrue();
    }

    @Test
    void aKernelDeviceRefusesIt() {
        assertThatThrownBy(() -> parse("-d", "rxe0", "--ecn").checkNative("rxe0"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("--ecn applies to jrxe NICs only");
    }
}
