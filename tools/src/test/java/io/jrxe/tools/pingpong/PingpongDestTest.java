package io.jrxe.tools.pingpong;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The message of rdma-core's pingpong examples: "%04x:%06x:%06x:%s" in 52 bytes with the NUL. */
class PingpongDestTest {
    static final byte[] GID = HexFormat.of().parseHex("00000000000000000000ffff7f000102");

    @Test
    void writesTheFiftyTwoBytesOfTheCExamples() {
        byte[] wire = new PingpongDest(0, 0x11, 0x4b1d2c, GID).toWire();
        assertThat(wire).hasSize(52);
        assertThat(new String(wire, 0, 51, StandardCharsets.US_ASCII))
                .isEqualTo("0000:000011:4b1d2c:00000000000000000000ffff7f000102");
        assertThat(wire[51]).isZero();
        assertThat(new PingpongDest(0xbeef, 0xffffff, 0, new byte[16]).toWire())
                .isEqualTo(Arrays.copyOf("beef:ffffff:000000:00000000000000000000000000000000".getBytes(StandardCharsets.US_ASCII), 52));
    }

    @Test
    void readsWhatItWritesAndWhatCWrites() {
        PingpongDest d = new PingpongDest(7, 0x123456, 0xabcdef, GID);
        assertThat(PingpongDest.parse(d.toWire())).isEqualTo(d);
        byte[] fromC = Arrays.copyOf("0000:000012:00a0b1:fe80000000000000505400fffe123456".getBytes(StandardCharsets.US_ASCII), 52);
        PingpongDest c = PingpongDest.parse(fromC);
        assertThat(c.qpn()).isEqualTo(0x12);
        assertThat(c.psn()).isEqualTo(0xa0b1);
        assertThat(c.describe(",")).isEqualTo("LID 0x0000, QPN 0x000012, PSN 0x00a0b1, GID fe80::5054:ff:fe12:3456");
    }

    @Test
    void refusesWhatIsNotAnAddressMessage() {
        assertThatThrownBy(() -> PingpongDest.parse("done\0".getBytes(StandardCharsets.US_ASCII)))
                .hasMessageContaining("not a pingpong address message");
        assertThatThrownBy(() -> PingpongDest.parse("0000:000011:4b1d2c:1234\0".getBytes(StandardCharsets.US_ASCII)))
                .hasMessageContaining("32 hex digits");
        assertThatThrownBy(() -> PingpongDest.parse("zz00:000011:4b1d2c:00000000000000000000ffff7f000102\0"
                .getBytes(StandardCharsets.US_ASCII))).hasMessageContaining("not a pingpong address message");
    }

    @Test
    void theLocalLineOfEachTool() {
        PingpongDest d = new PingpongDest(0, 0x11, 0x4b1d2c, GID);
        assertThat("  local address:  " + d.describe(","))
                .isEqualTo("  local address:  LID 0x0000, QPN 0x000011, PSN 0x4b1d2c, GID ::ffff:127.0.1.2");
        assertThat("  local address:  " + d.describe(":"))
                .isEqualTo("  local address:  LID 0x0000, QPN 0x000011, PSN 0x4b1d2c: GID ::ffff:127.0.1.2");
    }
}
