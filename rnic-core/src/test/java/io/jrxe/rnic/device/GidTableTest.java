package io.jrxe.rnic.device;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.GidType;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The GID table: for each address of the device, in order, a RoCE v1 and then a RoCE v2 entry
 * holding the address as a GID (IPv4 mapped as ::ffff:a.b.c.d, IPv6 as is), the first address's
 * RoCE v2 entry, index 1, being the default, as rxe lays it out.
 */
class GidTableTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void anIpv4AddressGivesAMappedGidV1ThenV2() throws Exception {
        NicResources rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("192.168.7.9")), NicExecutor.INLINE);
        List<GidEntry> gids = rnic.port().gids();
        byte[] mapped = hex("00000000000000000000ffffc0a80709");
        assertThat(gids).containsExactly(
                new GidEntry(0, mapped, GidType.ROCE_V1),
                new GidEntry(1, mapped, GidType.ROCE_V2));
        assertThat(rnic.port().defaultGidIndex()).isEqualTo(1);
        assertThat(rnic.port().gid(1).type()).isEqualTo(GidType.ROCE_V2);
        assertThat(GidEntry.format(mapped)).isEqualTo("0000:0000:0000:0000:0000:ffff:c0a8:0709");
        assertThat(GidEntry.isIpv4Mapped(mapped)).isTrue();
        assertThat(GidEntry.addressOf(mapped)).isEqualTo(InetAddress.getByName("192.168.7.9"));
        assertThat(gids.get(1).toString()).isEqualTo("GID[1] 0000:0000:0000:0000:0000:ffff:c0a8:0709 RoCE v2 (192.168.7.9)");
    }

    @Test
    void anIpv6AddressIsItsOwnGid() throws Exception {
        NicResources rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("fd00:77::1234")), NicExecutor.INLINE);
        byte[] gid = hex("fd000077000000000000000000001234");
        assertThat(rnic.port().gids()).containsExactly(
                new GidEntry(0, gid, GidType.ROCE_V1),
                new GidEntry(1, gid, GidType.ROCE_V2));
        assertThat(GidEntry.isIpv4Mapped(gid)).isFalse();
        assertThat(GidEntry.addressOf(gid)).isEqualTo(InetAddress.getByName("fd00:77::1234"));
        assertThat(GidEntry.format(gid)).isEqualTo("fd00:0077:0000:0000:0000:0000:0000:1234");
    }

    @Test
    void severalAddressesGiveTwoEntriesEachInOrder() throws Exception {
        NicResources rnic = Nics.resources(new DeviceConfig("jrxe0", List.of(InetAddress.getByName("10.0.0.1"),
                InetAddress.getByName("fe80::1")), 1500, DeviceAttributes.rxeDefaults()), NicExecutor.INLINE);
        List<GidEntry> gids = rnic.port().gids();
        assertThat(gids).extracting(GidEntry::index).containsExactly(0, 1, 2, 3);
        assertThat(gids).extracting(GidEntry::type)
                .containsExactly(GidType.ROCE_V1, GidType.ROCE_V2, GidType.ROCE_V1, GidType.ROCE_V2);
        assertThat(gids.get(1).gid()).isEqualTo(hex("00000000000000000000ffff0a000001"));
        assertThat(gids.get(3).gid()).isEqualTo(hex("fe800000000000000000000000000001"));
    }

    @Test
    void anIndexOutsideTheTableIsRefused() throws Exception {
        NicResources rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("10.0.0.1")), NicExecutor.INLINE);
        assertThatThrownBy(() -> rnic.port().gid(2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("GID index 2 is out of range: port 1 has 2 GIDs (0..1)");
        assertThatThrownBy(() -> rnic.port().gid(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aGidHasSixteenBytesAndIsCopied() {
        assertThatThrownBy(() -> new GidEntry(0, new byte[4], GidType.ROCE_V2))
                .hasMessage("a GID has 16 bytes, not 4");
        byte[] raw = hex("00000000000000000000ffff0a000001");
        GidEntry entry = new GidEntry(0, raw, GidType.ROCE_V2);
        raw[15] = 9;
        entry.gid()[15] = 9;
        assertThat(entry.gid()[15]).isEqualTo((byte) 1);
    }
}
