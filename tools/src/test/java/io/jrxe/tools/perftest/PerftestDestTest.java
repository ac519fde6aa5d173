package io.jrxe.tools.perftest;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** perftest's key messages: "%04x:%04x:%06x:%06x:%08x:%016llx:%08x" (59 bytes) and its GID form (108 bytes). */
class PerftestDestTest {
    static final byte[] GID = HexFormat.of().parseHex("00000000000000000000ffff7f000102");

    static byte[] c(String text, int size) {
        return Arrays.copyOf(text.getBytes(StandardCharsets.US_ASCII), size);
    }

    @Test
    void theShortFormIsFiftyNineBytes() {
        PerftestDest d = new PerftestDest(0, 1, 0x11, 0xabcdef, 0x1dc, 0x7f17a84f7000L, null, 0);
        byte[] wire = d.toWire();
        assertThat(wire).hasSize(59).isEqualTo(c("0000:0001:000011:abcdef:000001dc:00007f17a84f7000:00000000", 59));
        assertThat(PerftestDest.parse(wire, false)).isEqualTo(d);
    }

    @Test
    void theGidFormIsOneHundredAndEightBytes() {
        PerftestDest d = new PerftestDest(0, 0x80, 0x14, 0x99fbf1, 0x1dc, 0x7f17a84f7000L, GID, 0);
        byte[] wire = d.toWire();
        assertThat(wire).hasSize(108).isEqualTo(c("0000:0080:000014:99fbf1:000001dc:00007f17a84f7000:"
                + "00:00:00:00:00:00:00:00:00:00:ff:ff:7f:00:01:02:00000000:", 108));
        assertThat(wire[107]).isZero();
        assertThat(PerftestDest.parse(wire, true)).isEqualTo(d);
    }

    @Test
    void readsARealPeersMessage() {
        // As ib_write_bw on rxe sends it: an IPv4-mapped GID, a full 64-bit address, an R_Key with a high byte.
        PerftestDest d = PerftestDest.parse(c("0000:0080:000011:2ddc86:ff000208:00007f5f4bdc6000:"
                + "00:00:00:00:00:00:00:00:00:00:ff:ff:0a:4d:00:03:00000000:", 108), true);
        assertThat(d.qpn()).isEqualTo(0x11);
        assertThat(d.psn()).isEqualTo(0x2ddc86);
        assertThat(d.rkey()).isEqualTo(0xff000208);
        assertThat(d.vaddr()).isEqualTo(0x7f5f4bdc6000L);
        assertThat(d.outReads()).isEqualTo(0x80);
        assertThat(d.gid()).isEqualTo(HexFormat.of().parseHex("00000000000000000000ffff0a4d0003"));
    }

    @Test
    void refusesTheWrongForm() {
        byte[] shortForm = new PerftestDest(0, 1, 0x11, 1, 1, 1, null, 0).toWire();
        assertThatThrownBy(() -> PerftestDest.parse(shortForm, true)).hasMessageContaining("not a perftest GID key message");
        byte[] gidForm = new PerftestDest(0, 1, 0x11, 1, 1, 1, GID, 0).toWire();
        assertThatThrownBy(() -> PerftestDest.parse(gidForm, false)).hasMessageContaining("not a perftest key message");
        assertThatThrownBy(() -> PerftestDest.parse(c("0000:zz01:000011:abcdef:000001dc:00007f17a84f7000:00000000", 59), false))
                .hasMessageContaining("not a perftest key message");
    }
}
