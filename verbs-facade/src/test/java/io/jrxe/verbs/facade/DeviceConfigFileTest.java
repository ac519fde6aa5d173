package io.jrxe.verbs.facade;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.cc.Dcqcn;
import io.jrxe.rnic.cc.DcqcnParameters;
import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.rnic.memory.RemoteFaultPolicy;
import io.jrxe.verbs.*;
import io.jrxe.wire.sim.VirtualTime;
import io.jrxe.wire.stats.CounterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeviceConfigFileTest {
    @TempDir
    Path dir;

    @Test
    void readsDevicesAddressesMtuAndLimits() throws Exception {
        Path f = dir.resolve("devices.conf");
        Files.writeString(f, """
                # two tiny NICs for a lesson
                jrxe0.addr = 127.0.0.1
                jrxe0.mtu = 4200
                jrxe0.max_qp = 4     # show what happens at the fifth
                jrxe1.addr = 127.0.0.2
                jrxe1.addr2 = ::1
                jrxe1.mtt_entries = 1024
                jrxe1.faults = loss=0.01,seed=7;drop,nth=3
                jrxe1.ecn_capable = true
                jrxe1.cnp_interval_us = 4
                jrxe1.odp_fault_cost_ns = 20000
                jrxe1.odp_implicit = on
                jrxe1.odp = rnr_nak
                jrxe2.addr = 127.0.0.3
                jrxe2.odp_implicit = off
                """);
        List<DeviceConfig> configs = DeviceConfigFile.load(f);
        assertThat(configs).extracting(DeviceConfig::name).containsExactly("jrxe0", "jrxe1", "jrxe2");
        assertThat(configs.get(0).interfaceMtu()).isEqualTo(4200);
        assertThat(configs.get(0).attributes().maxQp()).isEqualTo(4);
        assertThat(configs.get(1).addresses()).hasSize(2);
        assertThat(configs.get(1).mttEntries()).isEqualTo(1024);
        assertThat(configs.get(0).mttEntries()).isEqualTo(DeviceConfig.DEFAULT_MTT_ENTRIES);
        assertThat(configs.get(0).faults().none()).isTrue();
        assertThat(configs.get(1).faults().seed()).isEqualTo(7);
        assertThat(configs.get(1).faults().send().loss()).isEqualTo(0.01);
        assertThat(configs.get(1).faults().rules()).hasSize(1);
        assertThat(configs.get(0).ecnCapable()).as("off unless set").isFalse();
        assertThat(configs.get(1).ecnCapable()).isTrue();
        assertThat(configs.get(0).cnpIntervalNanos()).isEqualTo(50_000);
        assertThat(configs.get(1).cnpIntervalNanos()).isEqualTo(4_000);
        assertThat(configs.get(0).odp()).as("rxe's unless set").isEqualTo(OdpSettings.RXE);
        assertThat(configs.get(1).odp()).as("implicit kept whatever the order of the keys")
                .isEqualTo(new OdpSettings(true, RemoteFaultPolicy.RNR_NAK, 20_000, true));
        assertThat(configs.get(2).odp()).isEqualTo(OdpSettings.RXE);
        assertThat(configs.get(0).odp().implicit()).as("off unless set, as kernel rxe").isFalse();
    }

    @Test
    void theCongestionControlComesBesideTheConfiguration() throws Exception {
        Path f = dir.resolve("cc.conf");
        Files.writeString(f, """
                jrxe0.addr = 127.0.0.1
                jrxe0.congestion_control = timely
                jrxe1.addr = 127.0.0.2
                jrxe2.addr = 127.0.0.3
                jrxe2.congestion_control = dcqcn:profile=connectx,ai=10M  # ConnectX's settings, a larger step
                """);
        List<ConfiguredDevice> devices = DeviceConfigFile.loadDevices(f);
        assertThat(devices).extracting(ConfiguredDevice::congestionControl)
                .containsExactly("timely", "none", "dcqcn:profile=connectx,ai=10M");
        assertThat(devices).extracting(d -> d.config().name()).containsExactly("jrxe0", "jrxe1", "jrxe2");
        Dcqcn dcqcn = (Dcqcn) devices.get(2).context().congestionControl().create(new VirtualTime(), new CounterRegistry());
        assertThat(dcqcn.parameters()).isEqualTo(DcqcnParameters.DEFAULTS.connectX().withIncrease(1, 10_000_000L,
                50_000_000L));
        assertThat(devices.get(0).context().congestionControl().create(new VirtualTime(), new CounterRegistry()).name())
                .as("the NIC made from the device's context runs it").isEqualTo("timely");
        assertThat(devices.get(1).context().congestionControl().create(new VirtualTime(), new CounterRegistry()).name())
                .isEqualTo("none");

        Files.writeString(f, "jrxe0.addr = 127.0.0.1\njrxe0.congestion_control = swift\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ":2: jrxe0.congestion_control: "
                + "no congestion control named 'swift': there are none, dcqcn, timely");
        Files.writeString(f, "jrxe0.addr = 127.0.0.1\njrxe0.congestion_control = dcqcn:g=2\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ":2: jrxe0.congestion_control: "
                + "'dcqcn:g=2': DCQCN: a gain g of 2.0: it must be above 0 and below 1");
    }

    @Test
    void mistakesNameTheLine() throws Exception {
        Path f = dir.resolve("bad.conf");
        Files.writeString(f, "jrxe0.addr = 127.0.0.1\njrxe0.max_qp = lots\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ":2: jrxe0.max_qp: not a number: lots");
        Files.writeString(f, "jrxe0.addr = 127.0.0.1\njrxe0.faults = loss=lots\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ":2: jrxe0.faults: clause 1 'loss=lots': "
                + "loss=lots: not a number; a probability from 0 to 1, as 0.01");
        Files.writeString(f, "jrxe0.addr = 127.0.0.1\njrxe0.ecn_capable = yes\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ":2: jrxe0.ecn_capable: true or false, not yes");
        Files.writeString(f, "jrxe0.addr = 127.0.0.1\njrxe0.odp = sometimes\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ":2: jrxe0.odp: in_line, rnr_nak or off, not sometimes");
        Files.writeString(f, "jrxe0.addr = 127.0.0.1\njrxe0.odp_fault_cost_ns = -1\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ":2: jrxe0.odp_fault_cost_ns: a cost of 0 ns or more, not -1");
        Files.writeString(f, "jrxe0.addr = 127.0.0.1\njrxe0.odp_implicit = yes\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ":2: jrxe0.odp_implicit: on or off, not yes");
        Files.writeString(f, "jrxe0.addr = 127.0.0.1\njrxe0.odp_implicit = on\njrxe0.odp = off\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ":2: jrxe0.odp_implicit: on needs on-demand "
                + "paging, but jrxe0.odp is off");
        Files.writeString(f, "jrxe0.colour = blue\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessageStartingWith(f + ":1: jrxe0.colour: unknown key");
        Files.writeString(f, "jrxe0.mtu = 1500\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessage(f + ": device jrxe0 has no jrxe0.addr");
        Files.writeString(f, "just words\n");
        assertThatThrownBy(() -> DeviceConfigFile.load(f)).hasMessageContaining(":1: expected `device.key = value`");
        assertThatThrownBy(() -> DeviceConfigFile.load(dir.resolve("missing.conf")))
                .hasMessageStartingWith("no such device configuration file");
    }
}
