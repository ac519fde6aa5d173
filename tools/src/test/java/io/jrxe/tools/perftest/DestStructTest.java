package io.jrxe.tools.perftest;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/** The key message of an rdma_cm exchange: perftest's struct pingpong_dest (up to 26.01), big-endian fields. */
class DestStructTest {
    @Test
    void theStructIsFiftySixBytesWithTheGidAtThirtyTwo() {
        PerftestDest d = new PerftestDest(0, 0x80, 0x14, 0x99fbf1, 0x1dc, 0x7f17a84f7000L, PerftestDestTest.GID, 0x21);
        byte[] wire = DestStruct.encode(d);
        assertThat(HexFormat.of().formatHex(wire)).isEqualTo(
                "00000000" + "00000080" + "00000014" + "0099fbf1" + "000001dc" + "00000000"
                        + "00007f17a84f7000" + "00000000000000000000ffff7f000102" + "00000021" + "00000000");
        assertThat(DestStruct.decode(wire)).isEqualTo(d);
    }

    @Test
    void aLongerMessageIsReadByItsFirstFiftySixBytes() {
        PerftestDest d = new PerftestDest(0, 1, 0x15, 0x10203, 0x278, 0x4000, PerftestDestTest.GID, 0);
        byte[] longer = java.util.Arrays.copyOf(DestStruct.encode(d), 64);
        assertThat(DestStruct.decode(longer)).isEqualTo(d);
    }
}
