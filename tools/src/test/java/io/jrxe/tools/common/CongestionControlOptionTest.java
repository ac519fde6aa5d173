package io.jrxe.tools.common;

import io.jrxe.rnic.cc.Dcqcn;
import io.jrxe.rnic.cc.DcqcnParameters;
import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.wire.sim.VirtualTime;
import io.jrxe.wire.stats.CounterRegistry;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** --cc: the congestion control a command's jrxe NIC is built with, refused by name and on a kernel device. */
class CongestionControlOptionTest {
    private static DeviceOptions parse(String... args) {
        DeviceOptions o = new DeviceOptions();
        new CommandLine(o).parseArgs(args);
        return o;
    }

    private static String nameOf(DeviceOptions o) {
        return o.congestionControl().create(new VirtualTime(), new CounterRegistry()).name();
    }

    @Test
    void namesChooseThePartAndNoneIsTheDefault() {
        assertThat(nameOf(parse())).isEqualTo("none");
        assertThat(nameOf(parse("--cc", "dcqcn"))).isEqualTo("dcqcn");
        assertThat(nameOf(parse("--cc", "timely"))).isEqualTo("timely");
        DeviceOptions settings = parse("--cc", "dcqcn:profile=connectx,line_rate=25G");
        assertThat(((Dcqcn) settings.congestionControl().create(new VirtualTime(), new CounterRegistry())).parameters())
                .as("settings after the name").isEqualTo(DcqcnParameters.DEFAULTS.withLineRate(25_000_000_000L).connectX());
    }

    @Test
    void aNameNoPartHasIsOneLineWithTheNames() {
        assertThatThrownBy(() -> parse("--cc", "swift").checkValues())
                .isInstanceOf(BadOption.class)
                .hasMessage("--cc swift: no congestion control named 'swift': there are none, dcqcn, timely");
        BadOptionAnswer.check(InProcess.run("pingpong", "--cc", "swift"), "pingpong",
                "--cc swift: no congestion control named 'swift': there are none, dcqcn, timely");
        BadOptionAnswer.check(InProcess.run("pingpong", "--cc", "timely:beta=2"), "pingpong",
                "--cc timely:beta=2: 'timely:beta=2': TIMELY: a beta of 2.0: it must be above 0 and at most 1");
        assertThatThrownBy(() -> parse("-d", "rxe0", "--cc", "dcqcn").checkNative("rxe0"))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("--cc applies to jrxe NICs only");
    }

    @Test
    void theCommandsNicRunsTheChosenPart() {
        DeviceOptions o = parse("--addr", "127.0.61.1", "--cc", "timely");
        try (LocalDevice d = EmulatedLocalDevice.open(o, new PrintWriter(new StringWriter()))) {
            CounterRegistry counters = ((EmulatedLocalDevice) d).device().nic().counters();
            assertThat(counters.has("jrxe_cc_rtt_samples")).as("TIMELY's counters are the NIC's").isTrue();
            assertThat(counters.get("jrxe_cc_rtt_samples")).as("the warm-up's RC traffic fed it round trips")
                    .isPositive();
        }
    }
}
