package io.jrxe.tools.decode;

import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.capture.GoldenCaptures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe decode --layout` on kernel rxe's golden captures: each header's offset, length and bytes; the AETH syndrome
 * bit by bit; the ICRC as Wireshark shows it. Expected values come from the capture's bytes read independently
 * ({@link IndependentPcap}) and from tshark on the same file (`-T fields -e infiniband.invariant.crc
 * -e infiniband.aeth.syndrome`: frame 5 is an ACK with syndrome 31 and ICRC 0xdf629b47).
 */
class DecodeLayoutTest {
    private static List<String> frameBlock(String out, int frame) {
        List<String> lines = out.lines().toList();
        int from = lines.indexOf(lines.stream().filter(l -> l.startsWith("Frame " + frame + ":")).findFirst().orElseThrow());
        int to = from + 1;
        while (to < lines.size() && !lines.get(to).isEmpty()) {
            to++;
        }
        return lines.subList(from, to);
    }

    @Test
    void anAckOfKernelRxeIsLaidOutHeaderByHeaderWithItsSyndromeSplitAndTheIcrcAsWiresharkShowsIt() {
        Path capture = GoldenCaptures.file("guest_pingpong.pcap");
        InProcess r = InProcess.run("decode", "--layout", capture.toString());
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(frameBlock(r.out(), 5)).containsExactly(
                "Frame 5: 62 bytes, Ethernet",
                "  offset bytes  header        hex",
                "       0    14  Ethernet      52 54 00 77 00 02 52 54 00 77 00 03 08 00",
                "      14    20  IPv4          45 00 00 30 e3 1f 40 00 40 11 42 ff 0a 4d 00 03",
                "                              0a 4d 00 02",
                "      34     8  UDP           c1 21 12 b7 00 1c 00 00",
                "      42    12  BTH           11 00 ff ff 00 00 00 11 00 7c 5d 0e",
                "      54     4  AETH          1f 00 00 01",
                "                              syndrome 0x1f = 0 00 11111: bit 7 reserved 0, bits 6-5 type 00 ACK, "
                        + "bits 4-0 credit count 31 (invalid: no end-to-end credits advertised)",
                "      58     4  ICRC          df 62 9b 47",
                "                              Wireshark shows 0xdf629b47 (the bytes in wire order); the CRC-32 is "
                        + "0x479b62df, least significant byte first on the wire; correct");
    }

    @Test
    void everyFramesRowsTileItAndItsIcrcRowHoldsItsLastFourBytes() {
        Path capture = GoldenCaptures.file("guest_atomic_fadd.pcap");
        List<byte[]> frames = IndependentPcap.frames(capture);
        InProcess r = InProcess.run("decode", "--layout", capture.toString());
        assertThat(r.status()).as(r.toString()).isZero();
        for (int n = 1; n <= frames.size(); n++) {
            byte[] frame = frames.get(n - 1);
            List<String> rows = frameBlock(r.out(), n).stream().filter(l -> l.matches(" +\\d+ +\\d+  .*")).toList();
            int next = 0;
            for (String row : rows) {
                String[] f = row.strip().split(" +", 3);
                assertThat(Integer.parseInt(f[0])).as("frame %d: %s starts where the row before ended", n, row).isEqualTo(next);
                next += Integer.parseInt(f[1]);
            }
            assertThat(next).as("frame %d: the rows cover every byte", n).isEqualTo(frame.length);
            String icrc = HexFormat.of().formatHex(Arrays.copyOfRange(frame, frame.length - 4, frame.length));
            assertThat(frameBlock(r.out(), n)).as("frame %d", n).contains("                              Wireshark shows 0x"
                    + icrc + " (the bytes in wire order); the CRC-32 is 0x" + reversed(icrc)
                    + ", least significant byte first on the wire; correct");
            // A FETCH_ADD request (BTH opcode 0x14, byte 42) or its ATOMIC_ACKNOWLEDGE (0x12).
            List<String> names = rows.stream().map(row -> row.strip().split(" +", 4)[2]).toList();
            if (frame[42] == 0x14) {
                assertThat(names).as("frame %d", n).containsExactly("Ethernet", "IPv4", "UDP", "BTH", "AtomicETH", "ICRC");
            } else {
                assertThat(frame[42]).as("frame %d", n).isEqualTo((byte) 0x12);
                assertThat(names).as("frame %d", n).containsExactly("Ethernet", "IPv4", "UDP", "BTH", "AETH", "AtomicAckETH",
                        "ICRC");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jrxe.tools.decode.DecodeCommandTest#goldenFiles")
    void everyGoldenFramesRowsTileItFromItsFirstByteToItsLast(Path capture) {
        InProcess r = InProcess.run("decode", "--layout", capture.toString());
        assertThat(r.status()).as(r.toString()).isZero();
        List<String> lines = r.out().lines().toList();
        int frames = 0;
        for (int i = 0; i < lines.size(); i++) {
            Matcher frame = Pattern.compile("Frame (\\d+): (\\d+) bytes, .*").matcher(lines.get(i));
            if (!frame.matches()) {
                continue;
            }
            frames++;
            int next = 0;
            boolean icrc = false;
            for (int k = i + 2; k < lines.size() && !lines.get(k).isEmpty(); k++) {
                String line = lines.get(k);
                assertThat(line).as("frame %s", frame.group(1)).doesNotContain("MALFORMED", "not RoCEv2");
                if (line.matches(" +\\d+ +\\d+  .*")) {
                    String[] f = line.strip().split(" +", 3);
                    assertThat(Integer.parseInt(f[0])).as("frame %s: %s", frame.group(1), line).isEqualTo(next);
                    next += Integer.parseInt(f[1]);
                    icrc |= f[2].startsWith("ICRC");
                }
            }
            assertThat(next).as("frame %s covered", frame.group(1)).isEqualTo(Integer.parseInt(frame.group(2)));
            assertThat(icrc).as("frame %s has its ICRC row", frame.group(1)).isTrue();
        }
        assertThat(frames).isEqualTo(IndependentPcap.frames(capture).size());
    }

    @Test
    void theSyndromesOtherTypesSayTheirTimerAndTheirCode() {
        // RNR NAK (01) with timer code 14, NAK (11) with code 2, and a NAK whose code is reserved.
        assertThat(PacketLayout.syndrome(0b0010_1110)).isEqualTo("syndrome 0x2e = 0 01 01110: bit 7 reserved 0, "
                + "bits 6-5 type 01 RNR NAK, bits 4-0 RNR timer code 14 (1.28 ms)");
        assertThat(PacketLayout.syndrome(0b0110_0010)).isEqualTo("syndrome 0x62 = 0 11 00010: bit 7 reserved 0, "
                + "bits 6-5 type 11 NAK, bits 4-0 NAK code 2 (remote access error)");
        assertThat(PacketLayout.syndrome(0b0111_0000)).endsWith("bits 4-0 NAK code 16 (reserved)");
        assertThat(PacketLayout.syndrome(0b0000_0101)).endsWith("type 00 ACK, bits 4-0 credit count 5");
    }

    @Test
    void layoutAndJsonTogetherAreRefusedInOneLine() {
        InProcess r = InProcess.run("decode", "--layout", "--json", GoldenCaptures.file("guest_pingpong.pcap").toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err().lines()).first().asString().contains("--layout and --json: one view at a time");
        assertThat(r.err()).doesNotContain("Exception");
    }

    private static String reversed(String hex) {
        return hex.substring(6, 8) + hex.substring(4, 6) + hex.substring(2, 4) + hex.substring(0, 2);
    }
}
