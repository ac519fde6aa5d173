package io.jrxe.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A multicast GID is what the kernel's rdma_is_multicast_addr says it is, and an IPv4 group is mapped. */
class MulticastGidTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "ff0e::1:2, true", "ff02::1, true", "::ffff:224.0.0.1, true", "::ffff:239.255.255.255, true",
        "::ffff:223.255.255.255, false", "::ffff:240.0.0.1, false", "::ffff:10.0.0.1, false", "fe80::1, false",
        "fd77::1, false", "::1, false", "::e000:1, false"})
    void isMulticastAsTheKernelDecides(String text, boolean multicast) throws Exception {
        assertThat(MulticastGid.isMulticast(gidBytes(text))).isEqualTo(multicast);
    }

    @Test
    void aGidHasSixteenBytes() {
        assertThat(MulticastGid.isMulticast(null)).isFalse();
        assertThat(MulticastGid.isMulticast(new byte[] {(byte) 0xFF, 0, 0, 1})).isFalse();
    }

    @Test
    void anIpv4GroupIsMappedAndAnIpv6GroupKept() throws Exception {
        assertThat(MulticastGid.of(InetAddress.getByName("239.1.2.3")))
                .containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 239, 1, 2, 3);
        assertThat(MulticastGid.of(InetAddress.getByName("ff0e::1:2"))).isEqualTo(InetAddress.getByName("ff0e::1:2").getAddress());
        assertThat(MulticastGid.QPN).isEqualTo(0xFFFFFF);
        assertThatThrownBy(() -> MulticastGid.of(InetAddress.getByName("10.0.0.1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a multicast address");
    }

    /** The 16 bytes of a GID written as an IPv6 address (Java reads ::ffff:a.b.c.d as IPv4: map it back). */
    private static byte[] gidBytes(String text) throws Exception {
        byte[] ip = InetAddress.getByName(text).getAddress();
        if (ip.length == 16) {
            return ip;
        }
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xFF;
        gid[11] = (byte) 0xFF;
        System.arraycopy(ip, 0, gid, 12, 4);
        return gid;
    }
}
