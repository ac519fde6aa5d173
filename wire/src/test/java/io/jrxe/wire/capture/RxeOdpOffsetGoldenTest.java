package io.jrxe.wire.capture;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What testdata/rxe-sid/README.md says of Linux 7.2's rxe with on-demand paging, read from its capture by tshark:
 * ibv_rc_pingpong -o -c keeps a 4096-byte buffer of 0x7b with a 0 in its first byte, and rxe sends each of a
 * message's four 1024-byte packets from the start of that page, so that every packet begins with the 0.
 */
class RxeOdpOffsetGoldenTest {
    private static final int PACKETS_PER_MESSAGE = 4;
    private static final int PAYLOAD = 1024;

    @Test
    void everyPacketOfAnOdpMessageCarriesThePagesFirstBytes() {
        Tshark.assumeInstalled();
        Path capture = GoldenCaptures.sidDirectory().resolve("odp_pingpong.pcap");
        List<List<String>> sends = Tshark.fields(capture, "infiniband.bth.opcode", "data.data").stream()
                .filter(row -> Integer.parseInt(row.get(0)) <= 2).toList();   // SEND FIRST, MIDDLE, LAST
        assertThat(sends).as("3 messages each way, 4 packets each").hasSize(6 * PACKETS_PER_MESSAGE);
        byte[] pageStart = new byte[PAYLOAD];
        Arrays.fill(pageStart, (byte) 0x7b);
        pageStart[0] = 0;
        for (List<String> send : sends) {
            assertThat(HexFormat.of().parseHex(send.get(1))).as("a packet's payload, whatever its place in the message")
                    .isEqualTo(pageStart);
        }
    }
}
