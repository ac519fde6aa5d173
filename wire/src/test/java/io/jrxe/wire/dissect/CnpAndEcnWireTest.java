package io.jrxe.wire.dissect;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.CnpWriter;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.ExternalTool;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CNP jrxe writes and the DSCP and ECN it reads, judged by tools nobody here wrote: Wireshark's
 * tshark reads the BTH of each CNP (it names opcode 0x81 "Unknown (129)" and shows the 16 reserved
 * bytes and the ICRC as vendor data) and the DSCP and ECN of every packet; scapy's RoCE layer builds
 * the same CNP from its own {@code cnp()} byte for byte and recomputes its ICRC.
 */
class CnpAndEcnWireTest {
    /** Each frame: IP version, TOS or traffic class, opcode, destination QP. */
    private static final int[][] FRAMES = {
        {4, 48 << 2, Opcode.CNP.code(), 0x000123},
        {4, 0x02, Opcode.RC_SEND_ONLY.code(), 0x000456},
        {4, 26 << 2 | 0x03, Opcode.RC_SEND_ONLY.code(), 0x000456},
        {4, 0x01, Opcode.CNP.code(), 0xABCDEF},
        {6, 48 << 2 | 0x03, Opcode.CNP.code(), 0x000777},
        {6, 0x02, Opcode.RC_SEND_ONLY.code(), 0x000778},
    };

    @TempDir
    static Path dir;
    static Path capture;
    static final List<byte[]> written = new ArrayList<>();

    @BeforeAll
    static void writeCapture() throws Exception {
        capture = dir.resolve("cnp-ecn.pcapng");
        RoceFramer framer = new RoceFramer();
        CnpWriter cnp = new CnpWriter();
        try (PcapngWriter out = new PcapngWriter(capture)) {
            int interfaceId = out.addInterface("lo", LinkType.ETHERNET, 0);
            for (int i = 0; i < FRAMES.length; i++) {
                int[] f = FRAMES[i];
                boolean v6 = f[0] == 6;
                framer.addresses(InetAddress.getByName(v6 ? "::1" : "127.0.0.1"),
                                InetAddress.getByName(v6 ? "::2" : "127.0.0.2"))
                        .ports(50_000, RoceFramer.ROCE_V2_PORT).identification(i + 1).tos(f[1]).flowLabel(0);
                ByteBuffer roce = ByteBuffer.allocate(CnpWriter.LENGTH + 8 + IcrcCalculator.LENGTH);
                int length;
                if (f[2] == Opcode.CNP.code()) {
                    length = cnp.write(roce, 0, BthFlyweight.DEFAULT_PKEY, f[3]) + IcrcCalculator.LENGTH;
                } else {
                    new BthFlyweight().wrap(roce, 0).set(f[2], false, 0, BthFlyweight.DEFAULT_PKEY, f[3], true, 7);
                    length = BthFlyweight.LENGTH + 8 + IcrcCalculator.LENGTH;
                }
                ByteBuffer frame = ByteBuffer.allocate(128);
                int frameLength = framer.frame(frame, 0, roce, 0, length, true);
                byte[] bytes = new byte[frameLength];
                frame.get(0, bytes);
                written.add(bytes);
                out.write(interfaceId, 1_000_000_000L * (i + 1), bytes, 0, bytes.length, null);
            }
        }
    }

    @Test
    void jrxesOwnDissectorReadsTheCnpAndTheCodepoints() {
        Dissector dissector = new Dissector();
        List<CapturedFrame> frames = CaptureReader.readAll(capture);
        assertThat(frames).hasSize(FRAMES.length);
        for (int i = 0; i < FRAMES.length; i++) {
            CapturedFrame f = frames.get(i);
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            String where = "frame " + (i + 1);
            assertThat(p.icrcOk()).as(where).isTrue();
            assertThat(p.opcode().code()).as(where).isEqualTo(FRAMES[i][2]);
            assertThat(p.bth().destQpn()).as(where).isEqualTo(FRAMES[i][3]);
            String json = PacketJson.of(p);
            assertThat(json).as(where).contains("\"dscp\":" + (FRAMES[i][1] >>> 2), "\"ecn\":" + (FRAMES[i][1] & 3));
            String detail = PacketDetail.of(p);
            assertThat(detail).as(where).contains("DSCP " + (FRAMES[i][1] >>> 2) + "  ECN " + (FRAMES[i][1] & 3));
            if (FRAMES[i][2] == Opcode.CNP.code()) {
                assertThat(p.bth().becn()).as(where).isTrue();
                assertThat(p.bth().psn()).as(where).isZero();
                assertThat(PacketSummary.of(p)).as(where).contains("CNP  qp=").contains("reserved=0  icrc=ok");
                assertThat(json).as(where).contains("\"opcode_name\":\"CNP\"", "\"cnp\":true");
                assertThat(detail).as(where).contains("CNP       reserved " + "00".repeat(16));
            }
        }
        assertThat(PacketSummary.of(dissector.dissect(3, 0, frames.get(2).data(), LinkType.ETHERNET))).contains("  CE  RC SEND");
    }

    @Test
    void tsharkReadsTheCnpsBthAndEveryPacketsDscpAndEcn() {
        Tshark.assumeInstalled();
        List<List<String>> rows = Tshark.fields(capture, "ip.dsfield.dscp", "ip.dsfield.ecn", "ipv6.tclass.dscp",
                "ipv6.tclass.ecn", "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
                "infiniband.bth.p_key", "infiniband.reserved", "infiniband.bth.a", "infiniband.vendor");
        assertThat(rows).hasSize(FRAMES.length);
        for (int i = 0; i < FRAMES.length; i++) {
            List<String> row = rows.get(i);
            int[] f = FRAMES[i];
            String where = "tshark, frame " + (i + 1);
            int column = f[0] == 4 ? 0 : 2;
            assertThat(row.get(column)).as(where + " DSCP").isEqualTo(Integer.toString(f[1] >>> 2));
            assertThat(row.get(column + 1)).as(where + " ECN").isEqualTo(Integer.toString(f[1] & 3));
            assertThat(row.get(4)).as(where + " opcode").isEqualTo(Integer.toString(f[2]));
            assertThat(Integer.decode(row.get(5))).as(where + " destination QP").isEqualTo(f[3]);
            if (f[2] == Opcode.CNP.code()) {
                byte[] sent = written.get(i);
                String icrc = HexFormat.of().formatHex(sent, sent.length - IcrcCalculator.LENGTH, sent.length);
                assertThat(row.subList(6, 10)).as(where + ": PSN, P_Key, the FECN/BECN byte (BECN set), A")
                        .containsExactly("0", "65535", "40", "0");
                // tshark shows the bytes after the BTH of an opcode it does not know as vendor data.
                assertThat(row.get(10).replace(":", "").replace(",", "")).as(where + " reserved bytes and ICRC")
                        .endsWith("00".repeat(16) + icrc);
            }
        }
    }

    /**
     * scapy's {@code cnp(qpn)} over the same IP and UDP headers gives the very bytes jrxe wrote (the
     * Ethernet header aside, whose addresses scapy chooses otherwise, and over IPv6 the ICRC, which
     * scapy's RoCE layer leaves zero there), and scapy recomputes the ICRC of every IPv4 frame to what
     * jrxe wrote.
     */
    @Test
    void scapyBuildsTheSameCnpAndAgreesWithEveryIcrc() {
        ExternalTool.assumeScapy();
        String script = String.join("\n",
                "import sys",
                "from scapy.all import Ether, IP, IPv6, UDP, raw, rdpcap",
                "from scapy.contrib.roce import BTH, cnp, CNPPadding",
                "for pkt in rdpcap(sys.argv[1]):",
                "    b = pkt[BTH]",
                "    if IP in pkt:",
                "        ip = pkt[IP]",
                "        mine = IP(src=ip.src, dst=ip.dst, tos=ip.tos, id=ip.id, flags='DF', ttl=ip.ttl)",
                "        stored = raw(pkt)[-4:]",
                "        b.icrc = None",
                "        icrc = 'icrc-ok' if raw(pkt)[-4:] == stored else 'icrc-bad'",
                "    else:",
                "        ip = pkt[IPv6]",
                "        mine = IPv6(src=ip.src, dst=ip.dst, tc=ip.tc, fl=ip.fl, hlim=ip.hlim)",
                "        icrc = 'icrc-unchecked'",
                "    cut = -4 if IPv6 in pkt else None",
                "    same = ''",
                "    if b.opcode == 0x81:",
                "        built = mine / UDP(sport=pkt[UDP].sport, dport=4791, chksum=0) / cnp(b.dqpn)",
                "        same = 'same' if raw(built)[:cut] == raw(pkt[Ether].payload)[:cut] else 'differs ' + raw(built).hex()",
                "    print(b.opcode, b.becn, b.dqpn, CNPPadding in pkt, icrc, same)",
                "");
        List<String> lines = ExternalTool.runOk(List.of(ExternalTool.DEBIAN_PYTHON.toString(), "-c", script,
                capture.toString()), 120).lines().filter(l -> !l.startsWith("WARNING")).toList();
        assertThat(lines).hasSize(FRAMES.length);
        for (int i = 0; i < FRAMES.length; i++) {
            int[] f = FRAMES[i];
            boolean cnp = f[2] == Opcode.CNP.code();
            String icrc = f[0] == 4 ? "icrc-ok" : "icrc-unchecked";
            String expected = f[2] + " " + (cnp ? 1 : 0) + " " + f[3] + " " + (cnp ? "True" : "False") + " " + icrc
                    + " " + (cnp ? "same" : "");
            assertThat(lines.get(i)).as("scapy, frame %d", i + 1).isEqualTo(expected);
        }
    }
}
