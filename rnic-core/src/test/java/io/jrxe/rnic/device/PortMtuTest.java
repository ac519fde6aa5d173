package io.jrxe.rnic.device;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.verbs.Mtu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The port's active MTU follows the interface MTU as in rxe (rxe_set_mtu / eth_mtu_int_to_enum):
 * the interface MTU less RXE_MAX_HDR_LENGTH (80 bytes), rounded down to an IB MTU, at most 4096.
 * So 1100 gives 512, not 1024: 1100 - 80 = 1020 < 1024. Where rxe would fall back to 256 for an
 * interface too small for even that, jrxe refuses the device and says why.
 */
class PortMtuTest {
    private static NicResources deviceOnMtu(int interfaceMtu) throws Exception {
        return Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("127.0.0.1")).withInterfaceMtu(interfaceMtu),
                NicExecutor.INLINE);
    }

    @ParameterizedTest(name = "interface MTU {0} -> {1}")
    @CsvSource({
        "1500, 1024", "4200, 4096", "9000, 4096", "65535, 4096",
        "1100, 512", "1103, 512", "1104, 1024",
        "600, 512", "592, 512", "591, 256", "336, 256",
        "2127, 1024", "2128, 2048", "4175, 2048", "4176, 4096",
    })
    void theActiveMtuFollowsTheInterface(int interfaceMtu, int activeBytes) throws Exception {
        NicResources rnic = deviceOnMtu(interfaceMtu);
        assertThat(rnic.port().activeMtu().bytes()).isEqualTo(activeBytes);
        assertThat(rnic.port().interfaceMtu()).isEqualTo(interfaceMtu);
        assertThat(rnic.port().maxMtu()).isEqualTo(Mtu.MTU_4096);
        assertThat(Mtu.fromInterfaceMtu(interfaceMtu).bytes()).isEqualTo(activeBytes);
    }

    @Test
    void anInterfaceTooSmallForA256BytePathMtuIsRefused() {
        assertThatThrownBy(() -> deviceOnMtu(335))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an interface MTU of 335 leaves 255 bytes after rxe's 80 bytes of headroom: at least 336 "
                        + "is needed for a 256-byte path MTU");
    }

    @Test
    void thePortIsAnActiveEthernetPortOne() throws Exception {
        NicResources rnic = deviceOnMtu(1500);
        assertThat(rnic.port().state()).isEqualTo(Port.State.ACTIVE);
        assertThat(rnic.port().linkLayer()).isEqualTo("Ethernet");
        assertThat(Port.NUMBER).isEqualTo(1);
        assertThat(rnic.config().interfaceMtu()).isEqualTo(1500);
    }
}
