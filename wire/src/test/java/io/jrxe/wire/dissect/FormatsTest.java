package io.jrxe.wire.dissect;

import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.testing.SamplePackets;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Addresses as the dissector prints them: IPv4 dotted, IPv6 in RFC 5952's short form (lower-case
 * hex without leading zeros, the longest run of two or more zero groups as "::", the first such
 * run on a tie, never a single zero group) and, like tshark, IPv4-mapped and IPv4-compatible
 * addresses with a dotted tail.
 */
class FormatsTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        // the 32 hex digits of the address,   the expected text
        "fd770000000000000000000000000002, fd77::2",
        "00000000000000000000000000000001, ::1",
        "00000000000000000000000000000000, ::",
        "00010000000000000000000000000000, 1::",
        "20010db8000000000001000000000001, 2001:db8::1:0:0:1",
        "20010db8000000010001000100010001, 2001:db8:0:1:1:1:1:1",
        "20010db8000100010001000100010000, 2001:db8:1:1:1:1:1:0",
        "00002001000100010001000100010001, 0:2001:1:1:1:1:1:1",
        "00010000000000020000000000000003, 1:0:0:2::3",
        "00010000000000020000000000030004, 1::2:0:0:3:4",
        "fe800000000000000001000000000000, fe80::1:0:0:0",
        "20010DB80000000000000000000000FF, 2001:db8::ff",
        "abcd00120345678900000000000a000b, abcd:12:345:6789::a:b",
        "00000000000000000000ffff0a4d0002, ::ffff:10.77.0.2",
        "000000000000000000000000c0000201, ::192.0.2.1",
        "00000000000000000000000000010000, ::0.1.0.0",
        "00000000000000000001ffff0a4d0002, ::1:ffff:a4d:2",
    })
    void ipv6InShortForm(String hex, String expected) {
        assertThat(Formats.ip(HexFormat.of().parseHex(hex))).isEqualTo(expected);
    }

    @Test
    void ipv4Dotted() {
        assertThat(Formats.ip(new byte[] {10, 77, 0, 2})).isEqualTo("10.77.0.2");
        assertThat(Formats.ip(new byte[] {(byte) 255, 0, 0, 1})).isEqualTo("255.0.0.1");
    }

    @Test
    void numbersAndMacs() {
        assertThat(Formats.mac(0x5254_0077_0002L)).isEqualTo("52:54:00:77:00:02");
        assertThat(Formats.qpn(0x11)).isEqualTo("0x000011");
        assertThat(Formats.hex32(-1)).isEqualTo("0xffffffff");
        assertThat(Formats.hex64(1)).isEqualTo("0x0000000000000001");
        assertThat(Formats.time(1_795_236_227_000_000_123L)).isEqualTo("1795236227.000000123");
    }

    /** tshark is the reference for how an address reads: write each as a packet's source and compare. */
    @Test
    void ipv6AgreesWithTshark(@TempDir Path dir) throws Exception {
        Tshark.assumeInstalled();
        Random random = new Random(5952);
        List<byte[]> addresses = new ArrayList<>();
        for (String literal : List.of("fd77::2", "::1", "1::", "2001:db8::1:0:0:1", "2001:db8:0:1:1:1:1:1",
                "1:0:0:2:0:0:3:4", "fe80::1:0:0:0", "::ffff:10.77.0.2", "::192.0.2.1", "::1:ffff:a4d:2", "::")) {
            addresses.add(InetAddress.getByName(literal).getAddress().length == 16
                    ? InetAddress.getByName(literal).getAddress() : mapped(InetAddress.getByName(literal).getAddress()));
        }
        for (int i = 0; i < 200; i++) {
            byte[] a = new byte[16];
            for (int g = 0; g < 8; g++) {
                // Mostly zero groups, so that runs of every length and position occur.
                int value = random.nextInt(3) == 0 ? random.nextInt(0x10000) : 0;
                a[2 * g] = (byte) (value >>> 8);
                a[2 * g + 1] = (byte) value;
            }
            addresses.add(a);
        }
        Path capture = dir.resolve("v6.pcapng");
        byte[] roce = SamplePackets.roce(Opcode.RC_SEND_ONLY, 8, random);
        try (PcapngWriter writer = new PcapngWriter(capture)) {
            int raw = writer.addInterface("raw", LinkType.RAW, 0);
            for (byte[] a : addresses) {
                byte[] frame = SamplePackets.frame(roce, "fd77::2", "fd77::3", 49152, 0);
                System.arraycopy(a, 0, frame, 14 + 8, 16);
                writer.write(raw, 0, frame, 14, frame.length - 14, null);
            }
        }
        List<List<String>> rows = Tshark.fields(capture, "ipv6.src");
        assertThat(rows).hasSameSizeAs(addresses);
        for (int i = 0; i < addresses.size(); i++) {
            assertThat(Formats.ip(addresses.get(i))).as(HexFormat.of().formatHex(addresses.get(i)))
                    .isEqualTo(rows.get(i).get(0));
        }
    }

    // InetAddress turns ::ffff:a.b.c.d into an Inet4Address; put it back in its IPv6 form.
    private static byte[] mapped(byte[] ipv4) {
        byte[] a = new byte[16];
        a[10] = (byte) 0xFF;
        a[11] = (byte) 0xFF;
        System.arraycopy(ipv4, 0, a, 12, 4);
        return a;
    }
}
