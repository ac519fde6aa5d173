package io.jrxe.wire.port.raw;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CaptureTap;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.testing.ExternalTool;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the raw transmit path puts on the wire, judged by tools nobody here wrote: tcpdump records
 * the packets on the loopback interface, scapy's RoCE layer recomputes every ICRC from the
 * captured headers, tshark reads the IP and UDP fields. The identification on the wire is the
 * one jrxe chose, and jrxe's own capture (sent and received) holds the same bytes and validates.
 */
class RawTransmitWireTest {
    private static final String A = "127.0.3.3";
    private static final String B = "127.0.3.4";
    private static final int PACKETS = 120;
    private static final int SOURCE_PORT = 50_123;

    @TempDir
    static Path dir;
    static Path script;

    @BeforeAll
    static void needsRawSocketAndTools() {
        RawPrivilege.assumeRawSocket();
        LoopbackTcpdump.assumeInstalled();
        Tshark.assumeInstalled();
        script = ExternalTool.scapyIcrcScript(dir);
    }

    @Test
    void theWireCarriesTheChosenIdentificationAndScapyValidatesEveryIcrc() throws Exception {
        Random random = new Random(11);
        List<byte[]> packets = new ArrayList<>();
        Opcode[] opcodes = Opcode.values();
        int[] sizes = {0, 3, 64, 1024, 4096};
        for (int i = 0; i < PACKETS; i++) {
            packets.add(SamplePackets.roce(opcodes[i % opcodes.length], sizes[i % sizes.length], random));
        }
        Path wire = dir.resolve("lo.pcap");
        Path jrxeCapture = dir.resolve("jrxe.pcapng");
        List<Integer> chosen = Collections.synchronizedList(new ArrayList<>());
        CaptureTap capture = new CaptureTap(new PcapngWriter(jrxeCapture), 10_000, 64 << 20);
        String filter = "udp dst port 4791 and src host " + A + " and dst host " + B;
        try (LoopbackPorts ports = LoopbackPorts.open(A, B, RawSocketOpener.system());
             LoopbackTcpdump tcpdump = LoopbackTcpdump.start(wire, PACKETS, filter, 60)) {
            PacketTap record = (d, s, t, sp, dp, id, roce, off, len, ts, c) -> chosen.add(id);
            ports.a.tap(PacketTap.both(capture.forPort("a"), record));
            ports.b.tap(capture.forPort("b"));

            ports.send(packets, SOURCE_PORT);
            assertThat(ports.awaitReceived(PACKETS, 10_000)).hasSize(PACKETS);
            tcpdump.awaitCaptured(30);
        } finally {
            capture.close();
        }

        List<CapturedFrame> onTheWire = CaptureReader.readAll(wire);
        assertThat(onTheWire).hasSize(PACKETS);
        assertThat(chosen).hasSize(PACKETS).doesNotContain(0);
        scapyValidatesTheWire(wire, chosen);
        tsharkReadsRxesHeaders(wire, chosen, packets);
        jrxesCaptureHoldsTheWiresPackets(jrxeCapture, onTheWire, chosen);
    }

    /** scapy: every ICRC right for the headers the kernel put on the wire, with our identifications. */
    private static void scapyValidatesTheWire(Path wire, List<Integer> chosen) {
        List<String> scapy = scapy(wire);
        assertThat(scapy).hasSize(PACKETS);
        for (int i = 0; i < PACKETS; i++) {
            assertThat(scapy.get(i)).as("scapy on wire packet %d", i).isEqualTo("ok " + chosen.get(i));
        }
    }

    /** tshark: the IP and UDP fields as rxe sends them, the identification jrxe chose, jrxe's ICRC. */
    private static void tsharkReadsRxesHeaders(Path wire, List<Integer> chosen, List<byte[]> packets) {
        List<List<String>> rows = Tshark.fields(wire, "ip.id", "ip.flags.df", "ip.ttl", "ip.dsfield", "ip.proto",
                "udp.srcport", "udp.dstport", "udp.checksum", "infiniband.bth.opcode", "infiniband.invariant.crc");
        assertThat(rows).hasSize(PACKETS);
        int icrcsShown = 0;
        for (int i = 0; i < PACKETS; i++) {
            List<String> row = rows.get(i);
            byte[] sent = packets.get(i);
            // tshark shows the ICRC's four bytes as they travel (least significant first) read as one number.
            int icrcBytes = ByteBuffer.wrap(sent).getInt(sent.length - IcrcCalculator.LENGTH);
            String where = "tshark, wire packet " + i;
            assertThat(Integer.decode(row.get(0))).as(where + " ip.id").isEqualTo(chosen.get(i));
            assertThat(row.subList(1, 9)).as(where).containsExactly("1", "64", "0x00", "17",
                    Integer.toString(SOURCE_PORT), "4791", "0x0000", Integer.toString(sent[0] & 0xFF));
            // Wireshark 4.0 stops before the ICRC of opcodes newer than it (FLUSH, ATOMIC_WRITE, CNP); scapy checked those.
            if (!row.get(9).isEmpty()) {
                assertThat(Long.decode(row.get(9))).as(where + " ICRC").isEqualTo(Integer.toUnsignedLong(icrcBytes));
                icrcsShown++;
            }
        }
        assertThat(icrcsShown).as("packets whose ICRC tshark shows").isGreaterThan(PACKETS * 3 / 4);
    }

    /**
     * jrxe's capture: the sent frames are byte for byte what the wire carried (Ethernet aside);
     * sent and received frames all validate, in jrxe and in scapy, received ones with the solved
     * identification, which is the one chosen.
     */
    private static void jrxesCaptureHoldsTheWiresPackets(Path jrxeCapture, List<CapturedFrame> onTheWire,
                                                         List<Integer> chosen) {
        Dissector dissector = new Dissector();
        List<CapturedFrame> tapped = CaptureReader.readAll(jrxeCapture);
        assertThat(tapped).hasSize(2 * PACKETS);
        Set<String> tappedIp = new HashSet<>();
        for (CapturedFrame f : tapped) {
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            assertThat(p.icrcOk()).as("jrxe capture frame %d", f.frameNumber()).isTrue();
            tappedIp.add(HexFormat.of().formatHex(ipPacket(f.data())));
        }
        for (CapturedFrame w : onTheWire) {
            assertThat(tappedIp).as("jrxe's capture holds wire packet %d", w.frameNumber())
                    .contains(HexFormat.of().formatHex(ipPacket(w.data())));
        }
        List<String> expectedTwice = new ArrayList<>();
        for (Integer id : chosen) {
            expectedTwice.add("ok " + id);
            expectedTwice.add("ok " + id);
        }
        assertThat(scapy(jrxeCapture)).containsExactlyInAnyOrderElementsOf(expectedTwice);
    }

    private static byte[] ipPacket(byte[] ethernetFrame) {
        return Arrays.copyOfRange(ethernetFrame, 14, ethernetFrame.length);
    }

    private static List<String> scapy(Path capture) {
        return ExternalTool.runOk(List.of(ExternalTool.DEBIAN_PYTHON.toString(), script.toString(), "pcap",
                capture.toString()), 120).lines().toList();
    }
}
