package io.jrxe.wire.dissect;

import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.framing.FrameLayout.Kind;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.jrxe.wire.dissect.TestFrames.ETH;
import static io.jrxe.wire.dissect.TestFrames.V4_UDP;
import static io.jrxe.wire.dissect.TestFrames.V6_UDP;
import static io.jrxe.wire.dissect.TestFrames.putShort;
import static io.jrxe.wire.dissect.TestFrames.roce;
import static io.jrxe.wire.dissect.TestFrames.v4;
import static io.jrxe.wire.dissect.TestFrames.v6;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Frames that are not what they claim to be: the dissector never throws, says MALFORMED with the
 * precise reason (or OTHER for frames that are simply not RoCEv2), and every renderer copes.
 */
class DissectorMalformedTest {
    private final Dissector dissector = new Dissector();
    private final Random random = new Random(4791);

    private DissectedPacket dissect(byte[] frame, int linkType, String where) {
        DissectedPacket p = dissector.dissect(7, 1_700_000_000_123_456_789L, frame, linkType);
        assertThat(p.capturedLength()).as(where).isEqualTo(frame.length);
        TestFrames.assertRenders(p, where);
        return p;
    }

    private DissectedPacket dissect(byte[] frame, String where) {
        return dissect(frame, LinkType.ETHERNET, where);
    }

    static List<Opcode> opcodesWithExtensionHeaders() {
        return Arrays.stream(Opcode.values()).filter(o -> o.headerCount() > 0).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("opcodesWithExtensionHeaders")
    void tooShortForItsHeadersIsMalformedAndOneMoreByteIsNot(Opcode opcode) {
        // A BTH and an ICRC (16 bytes) is the least a frame to 4791 can hold before the opcode is even read.
        for (int length = 16; length < opcode.headerLength() + 4; length++) {
            String where = opcode + " in " + length + " bytes";
            DissectedPacket p = dissect(v4(roce(opcode.code(), length, 0, random)), where);
            assertThat(p.kind()).as(where).isEqualTo(Kind.MALFORMED);
            assertThat(p.malformedReason()).as(where).isEqualTo(opcode.displayName() + " needs " + opcode.headerLength()
                    + " header bytes and a 4-byte ICRC, but the packet has " + length + " bytes");
            assertThat(p.opcode()).as(where).isEqualTo(opcode);
            assertThat(p.extensions()).as(where).isEmpty();
            assertThat(p.isAddressedToRoce()).as(where).isTrue();
            assertThat(p.icrcOk()).as(where + ": the ICRC itself is right").isTrue();
            assertThat(PacketSummary.of(p)).as(where).contains(opcode.displayName(), "icrc=ok");
        }
        int exact = opcode.headerLength() + 4;
        DissectedPacket p = dissect(v4(roce(opcode.code(), exact, 0, random)), opcode + " with no payload");
        assertThat(p.kind()).as("%s in %d bytes", opcode, exact).isEqualTo(Kind.ROCE);
        assertThat(p.extensions()).hasSize(opcode.headerCount());
        assertThat(p.payload()).isEmpty();
    }

    @Test
    void everyOpcodeWithExtensionHeadersIsCoveredAbove() {
        // Guards the test above against an opcode table that lost its headers (it would then test nothing).
        assertThat(opcodesWithExtensionHeaders()).contains(Opcode.RC_RDMA_WRITE_FIRST, Opcode.RC_ACKNOWLEDGE,
                Opcode.RC_ATOMIC_ACKNOWLEDGE, Opcode.RC_FETCH_ADD, Opcode.UD_SEND_ONLY_WITH_IMMEDIATE,
                Opcode.RC_SEND_ONLY_WITH_INVALIDATE, Opcode.RC_FLUSH, Opcode.CNP);
    }

    @Test
    void unknownOpcodesAreMalformedWithTheirNumber() {
        assertThat(Opcode.of(0x15)).isNull();
        assertThat(Opcode.of(0x40)).isNull();
        assertThat(Opcode.of(0xFF)).isNull();
        int unknown = 0;
        for (int code = 0; code < 256; code++) {
            if (Opcode.of(code) != null) {
                continue;
            }
            unknown++;
            String hex = String.format("0x%02x", code);
            for (byte[] frame : List.of(v4(roce(code, 40, 0, random)), v6(roce(code, 16, 3, random)))) {
                DissectedPacket p = dissect(frame, "opcode " + hex);
                assertThat(p.kind()).as(hex).isEqualTo(Kind.MALFORMED);
                assertThat(p.malformedReason()).isEqualTo("unknown opcode " + hex);
                assertThat(p.opcode()).isNull();
                assertThat(p.bth().opcode()).isEqualTo(code);
                assertThat(p.bth().psn()).isEqualTo(4242);
                assertThat(p.icrcOk()).isTrue();
                assertThat(PacketSummary.of(p)).contains("opcode " + hex, "MALFORMED: unknown opcode " + hex);
                assertThat(PacketDetail.of(p)).contains("opcode " + hex + " (unknown)");
                var json = StrictJson.parseObject(PacketJson.of(p));
                assertThat(json.get("opcode")).isEqualTo(new java.math.BigDecimal(code));
                assertThat(json.get("opcode_name")).isEqualTo("unknown");
            }
        }
        assertThat(unknown).isGreaterThan(150);
    }

    @Test
    void padCountLargerThanWhatFollowsTheHeaders() {
        for (Opcode opcode : List.of(Opcode.RC_SEND_ONLY, Opcode.RC_RDMA_WRITE_ONLY, Opcode.UD_SEND_ONLY_WITH_IMMEDIATE)) {
            for (int after = 0; after < 3; after++) {
                for (int pad = after + 1; pad <= 3; pad++) {
                    String where = opcode + " pad " + pad + " with " + after + " bytes";
                    DissectedPacket p = dissect(v6(roce(opcode.code(), opcode.headerLength() + after + 4, pad, random)), where);
                    assertThat(p.kind()).as(where).isEqualTo(Kind.MALFORMED);
                    assertThat(p.malformedReason()).as(where)
                            .isEqualTo("pad count " + pad + " but only " + after + " bytes after the headers");
                }
            }
            // Pad bytes alone, no payload: odd but well formed.
            DissectedPacket p = dissect(v4(roce(opcode.code(), opcode.headerLength() + 3 + 4, 3, random)), opcode + " pad only");
            assertThat(p.kind()).isEqualTo(Kind.ROCE);
            assertThat(p.payload()).isEmpty();
            assertThat(p.pad()).hasSize(3);
        }
    }

    @Test
    void noPayloadOpcodeWithTrailingBytes() {
        int checked = 0;
        for (Opcode opcode : Opcode.values()) {
            if (opcode.hasPayload()) {
                continue;
            }
            for (int extra : new int[] {1, 4, 7}) {
                String where = opcode + " + " + extra;
                DissectedPacket p = dissect(v4(roce(opcode.code(), opcode.headerLength() + extra + 4, 0, random)), where);
                assertThat(p.kind()).as(where).isEqualTo(Kind.MALFORMED);
                assertThat(p.malformedReason()).as(where).isEqualTo(
                        opcode.displayName() + " carries no payload, but " + extra + " bytes follow its headers");
                checked++;
            }
        }
        assertThat(checked).as("ACK, atomic ACK, read request, both atomics, flush, CNP").isEqualTo(7 * 3);
    }

    @Test
    void framesCutInsideTheLinkOrIpHeader() {
        byte[] good4 = v4(roce(Opcode.RC_SEND_ONLY.code(), 64, 0, random));
        byte[] good6 = v6(roce(Opcode.RC_SEND_ONLY.code(), 64, 0, random));
        for (int cut = 0; cut < ETH; cut++) {
            DissectedPacket p = dissect(Arrays.copyOf(good4, cut), "cut at " + cut);
            assertThat(p.kind()).isEqualTo(Kind.MALFORMED);
            assertThat(p.malformedReason()).isEqualTo("frame of " + cut + " bytes is shorter than an Ethernet header");
        }
        for (int cut = ETH; cut < ETH + 20; cut++) {
            DissectedPacket p = dissect(Arrays.copyOf(good4, cut), "IPv4 cut at " + cut);
            assertThat(p.kind()).as("IPv4 cut at %d", cut).isEqualTo(Kind.MALFORMED);
            assertThat(p.malformedReason()).as("IPv4 cut at %d", cut).isEqualTo("truncated IPv4 header");
            assertThat(p.ip()).isNull();
            assertThat(p.ethernet().etherType()).isEqualTo(0x0800);
        }
        for (int cut = ETH; cut < ETH + 40; cut++) {
            DissectedPacket p = dissect(Arrays.copyOf(good6, cut), "IPv6 cut at " + cut);
            assertThat(p.kind()).as("IPv6 cut at %d", cut).isEqualTo(Kind.MALFORMED);
            assertThat(p.malformedReason()).as("IPv6 cut at %d", cut).isEqualTo("truncated IPv6 header");
        }
    }

    @Test
    void ipHeaderThatLeavesNoRoomForUdp() {
        for (int room = 0; room < 8; room++) {
            byte[] v4 = Arrays.copyOf(v4(roce(Opcode.RC_SEND_ONLY.code(), 16, 0, random)), V4_UDP + room);
            putShort(v4, ETH + 2, 20 + room);
            DissectedPacket p = dissect(v4, "IPv4 with " + room + " UDP bytes");
            assertThat(p.kind()).isEqualTo(Kind.MALFORMED);
            assertThat(p.malformedReason()).isEqualTo("truncated UDP header");
            assertThat(p.ip()).isNotNull();
            assertThat(Formats.ip(p.ip().src())).isEqualTo("10.77.0.2");

            byte[] v6 = Arrays.copyOf(v6(roce(Opcode.RC_SEND_ONLY.code(), 16, 0, random)), V6_UDP + room);
            putShort(v6, ETH + 4, room);
            p = dissect(v6, "IPv6 with " + room + " UDP bytes");
            assertThat(p.kind()).isEqualTo(Kind.MALFORMED);
            assertThat(p.malformedReason()).isEqualTo("truncated UDP header");
        }
    }

    @ParameterizedTest(name = "IPv{0}")
    @ValueSource(ints = {4, 6})
    void ipLengthLargerThanCaptured(int version) {
        byte[] good = version == 4 ? v4(roce(Opcode.RC_SEND_ONLY.code(), 64, 0, random))
                : v6(roce(Opcode.RC_SEND_ONLY.code(), 64, 0, random));
        int ipLength = good.length - ETH;
        int udp = version == 4 ? V4_UDP : V6_UDP;
        for (int cut = udp; cut < good.length; cut++) {
            String where = "cut at " + cut;
            DissectedPacket p = dissect(Arrays.copyOf(good, cut), where);
            assertThat(p.kind()).as(where).isEqualTo(Kind.MALFORMED);
            assertThat(p.malformedReason()).as(where)
                    .isEqualTo("IP packet of " + ipLength + " bytes, but only " + (cut - ETH) + " captured");
            assertThat(p.ip()).as(where).isNotNull();
            assertThat(p.bth()).as(where).isNull();
            // A RoCE packet cut by the snapshot length is still one, if its ports were captured
            // (tshark counts it under udp.dstport == 4791 too); its ICRC cannot be checked.
            boolean portsCaptured = cut >= udp + 8;
            assertThat(p.isAddressedToRoce()).as(where).isEqualTo(portsCaptured);
            assertThat(p.udp() != null).as(where).isEqualTo(portsCaptured);
            assertThat(p.icrcOk()).as(where).isFalse();
        }
        // The same by the length field: the header claims more than the frame holds.
        byte[] longer = good.clone();
        putShort(longer, ETH + (version == 4 ? 2 : 4), (version == 4 ? ipLength : ipLength - 40) + 100);
        DissectedPacket p = dissect(longer, "IP length + 100");
        assertThat(p.kind()).isEqualTo(Kind.MALFORMED);
        assertThat(p.malformedReason()).isEqualTo("IP packet of " + (ipLength + 100) + " bytes, but only " + ipLength + " captured");
    }

    @Test
    void ethernetPaddingAfterTheIpPacketIsATrailerNotPayload() {
        byte[] good = v4(roce(Opcode.RC_ACKNOWLEDGE.code(), Opcode.RC_ACKNOWLEDGE.headerLength() + 4, 0, random));
        byte[] padded = Arrays.copyOf(good, good.length + 6);
        DissectedPacket p = dissect(padded, "ACK with 6 bytes of Ethernet padding");
        assertThat(p.kind()).isEqualTo(Kind.ROCE);
        assertThat(p.icrcOk()).isTrue();
        assertThat(p.trailer()).hasSize(6);
    }

    @Test
    void udpLengthsThatDisagreeOrLeaveNoRoomForBthAndIcrc() {
        byte[] frame = v4(roce(Opcode.RC_SEND_ONLY.code(), 32, 0, random));
        putShort(frame, V4_UDP + 4, 8 + 31);
        DissectedPacket p = dissect(frame, "UDP length one short");
        assertThat(p.kind()).isEqualTo(Kind.MALFORMED);
        assertThat(p.malformedReason()).isEqualTo("UDP length 39 disagrees with the IP length (40)");
        assertThat(p.isAddressedToRoce()).isTrue();
        assertThat(p.icrcOk()).isFalse();

        for (int roceLength = 0; roceLength < 16; roceLength++) {
            byte[] runt = Arrays.copyOf(v4(roce(Opcode.RC_SEND_ONLY.code(), 16, 0, random)), V4_UDP + 8 + roceLength);
            putShort(runt, ETH + 2, 28 + roceLength);
            putShort(runt, V4_UDP + 4, 8 + roceLength);
            p = dissect(runt, "UDP payload of " + roceLength);
            assertThat(p.kind()).isEqualTo(Kind.MALFORMED);
            assertThat(p.malformedReason()).isEqualTo("UDP payload of " + roceLength
                    + " bytes is too short for a BTH and an ICRC");
            assertThat(p.isAddressedToRoce()).isTrue();
            assertThat(p.icrcOk()).isFalse();
        }
    }

    @Test
    void notUdpOrNotToPort4791IsOther() {
        byte[] good4 = v4(roce(Opcode.RC_SEND_ONLY.code(), 32, 0, random));
        byte[] good6 = v6(roce(Opcode.RC_SEND_ONLY.code(), 32, 0, random));

        byte[] tcp = good4.clone();
        tcp[ETH + 9] = 6;
        byte[] tcp6 = good6.clone();
        tcp6[ETH + 6] = 6;
        byte[] otherPort = good4.clone();
        putShort(otherPort, V4_UDP + 2, 4792);
        byte[] fromPort4791 = good6.clone();
        putShort(fromPort4791, V6_UDP, 4791);
        putShort(fromPort4791, V6_UDP + 2, 53);
        byte[] fragment = good4.clone();
        putShort(fragment, ETH + 6, 0x2000); // more fragments: not a whole datagram
        byte[] arp = good4.clone();
        putShort(arp, 12, 0x0806);

        for (byte[] frame : List.of(tcp, tcp6, otherPort, fromPort4791, fragment, arp)) {
            DissectedPacket p = dissect(frame, "other");
            assertThat(p.kind()).isEqualTo(Kind.OTHER);
            assertThat(p.malformedReason()).isNull();
            assertThat(p.isRoce()).isFalse();
            assertThat(p.isAddressedToRoce()).isFalse();
            assertThat(PacketSummary.of(p)).contains("not RoCEv2");
        }
        assertThat(dissect(otherPort, "port 4792").udp().dstPort()).isEqualTo(4792);
        assertThat(dissect(fromPort4791, "to port 53").udp().srcPort()).isEqualTo(4791);

        byte[] wrongVersion = good4.clone();
        wrongVersion[ETH] = 0x65;
        DissectedPacket p = dissect(wrongVersion, "IPv6 version in an IPv4 EtherType");
        assertThat(p.kind()).isEqualTo(Kind.MALFORMED);
        assertThat(p.malformedReason()).isEqualTo("EtherType 0x800 but IP version 6");

        assertThat(dissect(good4, LinkType.ETHERNET + 1000, "unknown link type").kind()).isEqualTo(Kind.OTHER);
    }

    @Test
    void vlanTaggedFramesAreTakenApartBehindTheirTags() {
        byte[] plain = v4(SamplePackets.roce(Opcode.RC_RDMA_WRITE_FIRST, 100, random));
        DissectedPacket untagged = dissect(plain, "untagged");
        for (int[] tags : List.of(new int[] {0x8100}, new int[] {0x88A8, 0x8100})) {
            String where = tags.length + " tag(s)";
            DissectedPacket p = dissect(TestFrames.vlanTagged(plain, tags), where);
            assertThat(p.kind()).as(where).isEqualTo(Kind.ROCE);
            assertThat(p.icrcOk()).as(where).isTrue();
            assertThat(p.ethernet().etherType()).as(where).isEqualTo(tags[0]);
            assertThat(p.bth()).as(where).isEqualTo(untagged.bth());
            assertThat(p.extensions()).as(where).isEqualTo(untagged.extensions());
            assertThat(p.payload()).as(where).isEqualTo(untagged.payload());
        }
        // A tag cut short: nothing to read behind it.
        byte[] cutTag = Arrays.copyOf(TestFrames.vlanTagged(plain, 0x8100), 15);
        assertThat(dissect(cutTag, "cut VLAN tag").isRoce()).isFalse();
    }

    @ParameterizedTest(name = "link type {0}")
    @ValueSource(ints = {LinkType.LINUX_SLL, LinkType.LINUX_SLL2, LinkType.RAW, LinkType.NULL, LinkType.IPV4, LinkType.IPV6})
    void otherLinkTypesCarryingRoce(int linkType) {
        List<byte[]> frames = new ArrayList<>();
        if (linkType != LinkType.IPV6) {
            frames.add(v4(SamplePackets.roce(Opcode.RC_SEND_ONLY_WITH_IMMEDIATE, 33, random)));
        }
        if (linkType != LinkType.IPV4) {
            frames.add(v6(SamplePackets.roce(Opcode.RC_ATOMIC_ACKNOWLEDGE, 0, random)));
        }
        for (byte[] ethernet : frames) {
            DissectedPacket reference = dissect(ethernet, "Ethernet");
            byte[] frame = TestFrames.relink(ethernet, linkType);
            String where = LinkType.name(linkType) + " " + reference.opcode();
            DissectedPacket p = dissect(frame, linkType, where);
            assertThat(p.kind()).as(where).isEqualTo(Kind.ROCE);
            assertThat(p.linkType()).isEqualTo(linkType);
            assertThat(p.ethernet()).as(where).isNull();
            assertThat(p.icrcOk()).as(where).isTrue();
            assertThat(p.ip().src()).as(where).isEqualTo(reference.ip().src());
            assertThat(p.udp()).as(where).isEqualTo(reference.udp());
            assertThat(p.bth()).as(where).isEqualTo(reference.bth());
            assertThat(p.extensions()).as(where).isEqualTo(reference.extensions());
            assertThat(p.payload()).as(where).isEqualTo(reference.payload());
            assertThat(PacketDetail.of(p)).as(where).contains(LinkType.name(linkType)).doesNotContain("Ethernet ");
            // Cut anywhere, it is malformed or other, never an exception.
            for (int cut = 0; cut < frame.length; cut++) {
                DissectedPacket c = dissect(Arrays.copyOf(frame, cut), linkType, where + " cut at " + cut);
                assertThat(c.kind()).as(where + " cut at " + cut).isNotEqualTo(Kind.ROCE);
            }
        }
    }

    /** tshark takes the hand-built SLL, SLL2, raw and loopback frames apart the same way (so the frames above are right). */
    @Test
    void handBuiltLinkTypesAgreeWithTshark(@TempDir Path dir) {
        Tshark.assumeInstalled();
        int[] linkTypes = {LinkType.ETHERNET, LinkType.LINUX_SLL, LinkType.LINUX_SLL2, LinkType.RAW, LinkType.NULL};
        List<DissectedPacket> expected = new ArrayList<>();
        Path capture = dir.resolve("links.pcapng");
        try (PcapngWriter writer = new PcapngWriter(capture)) {
            for (int linkType : linkTypes) {
                int id = writer.addInterface(LinkType.name(linkType), linkType, 0);
                for (byte[] ethernet : List.of(v4(SamplePackets.roce(Opcode.RC_RDMA_WRITE_ONLY, 20, random)),
                        v6(SamplePackets.roce(Opcode.UD_SEND_ONLY, 9, random)))) {
                    byte[] frame = TestFrames.relink(ethernet, linkType);
                    expected.add(dissect(frame, linkType, LinkType.name(linkType)));
                    writer.write(id, 0, frame, 0, frame.length, null);
                }
            }
        }
        List<List<String>> rows = Tshark.fields(capture, "udp.srcport", "infiniband.bth.opcode", "infiniband.bth.destqp",
                "infiniband.bth.psn");
        assertThat(rows).hasSameSizeAs(expected);
        for (int i = 0; i < rows.size(); i++) {
            DissectedPacket p = expected.get(i);
            List<String> row = rows.get(i);
            String where = "frame " + (i + 1) + " " + LinkType.name(p.linkType());
            assertThat(p.kind()).as(where).isEqualTo(Kind.ROCE);
            assertThat(Integer.decode(row.get(0))).as(where + " source port").isEqualTo(p.udp().srcPort());
            assertThat(Integer.decode(row.get(1))).as(where + " opcode").isEqualTo(p.bth().opcode());
            assertThat(Integer.decode(row.get(2))).as(where + " dest QP").isEqualTo(p.bth().destQpn());
            assertThat(Integer.decode(row.get(3))).as(where + " PSN").isEqualTo(p.bth().psn());
        }
    }

    @Test
    void shortLinkHeaders() {
        assertThat(dissect(new byte[15], LinkType.LINUX_SLL, "SLL").malformedReason())
                .isEqualTo("frame of 15 bytes is shorter than a Linux cooked header");
        assertThat(dissect(new byte[19], LinkType.LINUX_SLL2, "SLL2").malformedReason())
                .isEqualTo("frame of 19 bytes is shorter than a Linux cooked v2 header");
        assertThat(dissect(new byte[3], LinkType.NULL, "loopback").malformedReason())
                .isEqualTo("frame of 3 bytes is shorter than a loopback header");
        assertThat(dissect(new byte[0], LinkType.RAW, "empty raw").kind()).isEqualTo(Kind.OTHER);
        assertThat(dissect(new byte[] {0x50}, LinkType.RAW, "raw IP version 5").kind()).isEqualTo(Kind.OTHER);
        assertThat(dissect(new byte[] {0x45}, LinkType.RAW, "raw IPv4 of 1 byte").malformedReason())
                .isEqualTo("truncated IPv4 header");
    }

    @Test
    void malformedPacketsStillShowTheirHeadersInTheDetailView() {
        byte[] frame = v4(roce(Opcode.RC_RDMA_WRITE_FIRST.code(), 20, 0, random));
        DissectedPacket p = dissect(frame, "write first without its RETH");
        String detail = PacketDetail.of(p);
        assertThat(detail).contains("IPv4      src 10.77.0.2  dst 10.77.0.3", "UDP       src port 49152  dst port 4791",
                "BTH       opcode 0x06 (RC RDMA_WRITE_FIRST)", "PSN 4242", "MALFORMED RC RDMA_WRITE_FIRST needs 28 header bytes");
        assertThat(p.payload()).hasSize(20 - 12 - 4);
    }
}
