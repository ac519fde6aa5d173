package io.jrxe.rnic.device;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.wire.framing.RoceFramer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The node GUID is the EUI-64 of the device's MAC (which jrxe derives from its first address,
 * 02:00:a:b:c:d): ff:fe inserted in the middle and the universal/local bit flipped, as rxe
 * derives its GUID from the netdev's address.
 */
class NodeGuidTest {
    @ParameterizedTest(name = "{0} -> MAC {1} -> GUID {2}")
    @CsvSource({
        "127.0.0.1, 02007f000001, 00007ffffe000001",
        "10.1.2.3, 02000a010203, 00000afffe010203",
        "192.168.7.9, 0200c0a80709, 0000c0fffea80709",
        "fd00::abcd:1234, 0200abcd1234, 0000abfffecd1234",
    })
    void theGuidIsTheEui64OfTheMac(String address, String mac, String guid) throws Exception {
        InetAddress ip = InetAddress.getByName(address);
        assertThat(RoceFramer.macFor(ip.getAddress())).isEqualTo(Long.parseLong(mac, 16));
        NicResources rnic = Nics.resources(DeviceConfig.of("jrxe0", ip), NicExecutor.INLINE);
        assertThat(rnic.nodeGuid()).isEqualTo(Long.parseUnsignedLong(guid, 16));

        // The EUI-64 rule, spelled out on the bytes.
        long m = Long.parseLong(mac, 16);
        long eui64 = ((((m >>> 40) & 0xFF) ^ 0x02) << 56) | (((m >>> 32) & 0xFF) << 48) | (((m >>> 24) & 0xFF) << 40)
                | (0xFFL << 32) | (0xFEL << 24) | (m & 0xFFFFFF);
        assertThat(rnic.nodeGuid()).isEqualTo(eui64);
    }
}
