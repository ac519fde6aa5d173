package io.jrxe.verbs.udp;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.udp.PortInUseException;
import org.junit.jupiter.api.Test;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Devices on real UDP refuse what cannot work, at once and in one sentence. */
class UdpDeviceBadInputTest {
    @Test
    void twoDevicesOnOneAddressAreRefused() throws Exception {
        InetAddress address = InetAddress.getByName("127.0.4.1");
        EmulatedDevice first = Verbs.emulated().createUdp(DeviceConfig.of("bad-in-1", address));
        try {
            assertThatThrownBy(() -> Verbs.emulated().createUdp(DeviceConfig.of("bad-in-2", address)))
                    .isInstanceOf(PortInUseException.class)
                    .hasMessage("another RoCE device, kernel rxe or jrxe, already uses 127.0.4.1:4791");
            assertThat(Verbs.deviceList()).extracting(d -> d.name()).contains("bad-in-1").doesNotContain("bad-in-2");
        } finally {
            Verbs.emulated().remove(first);
        }
    }

    @Test
    void aPortTakenByAnotherProgramIsNamed() throws Exception {
        try (DatagramSocket other = new DatagramSocket(new InetSocketAddress("127.0.4.2", 4791))) {
            assertThat(other.isBound()).isTrue();
            assertThatThrownBy(() -> Verbs.emulated().createUdp(DeviceConfig.of("bad-in-3", InetAddress.getByName("127.0.4.2"))))
                    .isInstanceOf(PortInUseException.class)
                    .hasMessageContaining("already uses 127.0.4.2:4791");
        }
    }

    @Test
    void anAddressThatIsNotLocalIsNamed() {
        assertThatThrownBy(() -> Verbs.emulated().createUdp(DeviceConfig.of("bad-in-4", InetAddress.getByName("192.0.2.7"))))
                .isInstanceOf(PortInUseException.class)
                .hasMessage("192.0.2.7 is not an address of this machine (see `ip addr`)");
    }

    @Test
    void aDeviceNameIsUniqueAndTheLoserReleasesItsPort() throws Exception {
        EmulatedDevice first = Verbs.emulated().createUdp(DeviceConfig.of("bad-in-5", InetAddress.getByName("127.0.4.3")));
        try {
            assertThatThrownBy(() -> Verbs.emulated().createUdp(DeviceConfig.of("bad-in-5", InetAddress.getByName("127.0.4.4"))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a device named bad-in-5 exists already");
            EmulatedDevice again = Verbs.emulated().createUdp(DeviceConfig.of("bad-in-6", InetAddress.getByName("127.0.4.4")));
            Verbs.emulated().remove(again);
        } finally {
            Verbs.emulated().remove(first);
        }
    }
}
