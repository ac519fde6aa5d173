package io.jrxe.rnic;

import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.wire.port.fault.FaultSpec;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each with-method changes its own components and keeps every other one. */
class DeviceConfigTest {
    private static final DeviceConfig BASE = DeviceConfig.of("jrxe7", InetAddress.getLoopbackAddress());

    @Test
    void eachWithMethodChangesOnlyItsComponents() {
        DeviceConfig all = BASE.withInterfaceMtu(9000)
                .withAttributes(DeviceAttributes.rxeDefaults())
                .withRxeFlushIcrc(true)
                .withMttEntries(4096)
                .withFaults(FaultSpec.parse("loss=0.5"))
                .withUdpPorts(4800, 4801)
                .withFirstNumbers(0x42, 7)
                .withEcnCapable(true)
                .withCnpInterval(0)
                .withOdp(OdpSettings.DISABLED);

        assertThat(all).isEqualTo(new DeviceConfig("jrxe7", List.of(InetAddress.getLoopbackAddress()), 9000,
                DeviceAttributes.rxeDefaults(), true, 4096, FaultSpec.parse("loss=0.5"), 4800, 4801, 0x42, 7, true, 0,
                OdpSettings.DISABLED));
        assertThat(all.withInterfaceMtu(1500).withRxeFlushIcrc(false).withMttEntries(DeviceConfig.DEFAULT_MTT_ENTRIES)
                .withFaults(FaultSpec.NONE).withUdpPorts(4791, 4791).withFirstNumbers(0x11, 1).withEcnCapable(false)
                .withCnpInterval(DeviceConfig.DEFAULT_CNP_INTERVAL_NANOS).withOdp(OdpSettings.RXE)).isEqualTo(BASE);
    }

    @Test
    void aChangedCopyIsCheckedAsANewOneIs() {
        assertThatThrownBy(() -> BASE.withUdpPorts(0, 4791)).hasMessageContaining("UDP ports are 1 to 65535");
        assertThatThrownBy(() -> BASE.withCnpInterval(-1)).hasMessageContaining("CNP interval of -1 ns");
        assertThat(BASE.withFirstNumbers(0x20, 2).name()).isEqualTo("jrxe7");
    }
}
