package io.jrxe.tools.common;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GidsTest {
    private static byte[] gid(String address) throws Exception {
        byte[] a = InetAddress.getByName(address).getAddress();
        if (a.length == 16) {
            return a;
        }
        byte[] g = new byte[16];
        g[10] = (byte) 0xFF;
        g[11] = (byte) 0xFF;
        System.arraycopy(a, 0, g, 12, 4);
        return g;
    }

    /** Expected strings are what glibc's inet_ntop prints for the same bytes. */
    @Test
    void printsAsInetNtop() throws Exception {
        assertThat(Gids.ntop(gid("127.0.1.2"))).isEqualTo("::ffff:127.0.1.2");
        assertThat(Gids.ntop(new byte[16])).isEqualTo("::");
        assertThat(Gids.ntop(gid("fe80::5054:ff:fe12:3456"))).isEqualTo("fe80::5054:ff:fe12:3456");
        assertThat(Gids.ntop(gid("2001:db8:0:1:0:0:0:1"))).isEqualTo("2001:db8:0:1::1");
        assertThat(Gids.ntop(gid("2001:db8:0:0:1:0:0:1"))).isEqualTo("2001:db8::1:0:0:1");
        assertThat(Gids.ntop(gid("::1"))).isEqualTo("::1");
        assertThat(Gids.ntop(gid("::2"))).isEqualTo("::2");
        assertThat(Gids.ntop(gid("::1.2.3.4"))).isEqualTo("::1.2.3.4");
        assertThat(Gids.ntop(gid("1:0:2:0:3:0:4:0"))).isEqualTo("1:0:2:0:3:0:4:0");
        assertThat(Gids.ntop(gid("1::"))).isEqualTo("1::");
    }

    @Test
    void wireFormIsTheSixteenBytesInHex() throws Exception {
        byte[] g = gid("127.0.1.2");
        assertThat(Gids.wire(g)).isEqualTo("00000000000000000000ffff7f000102");
        assertThat(Gids.fromWire("00000000000000000000ffff7f000102")).isEqualTo(g);
        assertThatThrownBy(() -> Gids.fromWire("00ff")).hasMessageContaining("32 hex digits");
        assertThatThrownBy(() -> Gids.fromWire("0000000000000000000Xffff7f000102")).hasMessageContaining("32 hex digits");
        assertThat(Gids.hasInterfaceId(g)).isTrue();
        assertThat(Gids.hasInterfaceId(new byte[16])).isFalse();
    }

    /** Checked against glibc's printf. */
    @Test
    void alternateHexAsGlibcPrintsIt() {
        assertThat(CFormat.altHex(0, 4)).isEqualTo("0000");
        assertThat(CFormat.altHex(5, 4)).isEqualTo("0x05");
        assertThat(CFormat.altHex(0x11, 6)).isEqualTo("0x0011");
        assertThat(CFormat.altHex(0x2ddc86, 6)).isEqualTo("0x2ddc86");
        assertThat(CFormat.altHex(0x208, 8)).isEqualTo("0x000208");
        assertThat(CFormat.altHex(0x7f5f4bdc6000L, 16)).isEqualTo("0x007f5f4bdc6000");
        assertThat(CFormat.altHex(0x123456789L, 4)).isEqualTo("0x123456789");
    }
}
