package io.jrxe.wire.dissect;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.cm.CmAttribute;
import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.IpCmServiceId;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.cm.PortSpace;
import io.jrxe.wire.cm.ReqFlyweight;
import io.jrxe.wire.framing.FrameLayout.Kind;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dissector on QP1: the MADs of the golden CM captures come out decoded (and their decoded
 * values make the same bytes again), every renderer names the message and shows its fields, and
 * MADs that are cut short, too long, of another class or full of random bytes never make it throw.
 */
class CmDissectionTest {
    private final Dissector dissector = new Dissector();

    static List<Path> cmFiles() {
        return GoldenCaptures.cmFiles();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void everyMadOfTheCmCapturesIsDecodedAndItsValuesMakeItsBytesAgain(Path file) {
        int mads = 0;
        for (CapturedFrame f : CaptureReader.readAll(file)) {
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            String where = file.getFileName() + " frame " + f.frameNumber();
            assertThat(p.kind()).as(where).isEqualTo(Kind.ROCE);
            boolean toQp1 = p.opcode() == Opcode.UD_SEND_ONLY && p.bth().destQpn() == MadHeaderFlyweight.GSI_QPN;
            assertThat(p.mad() != null).as(where + " has a MAD exactly when it goes to QP1").isEqualTo(toQp1);
            if (!toQp1) {
                continue;
            }
            mads++;
            MadFields mad = p.mad();
            assertThat(mad.cmAttribute()).as(where).isNotNull();
            assertThat(mad.cm()).hasSameSizeAs(mad.cmAttribute().fields());
            assertThat(rebuild(mad)).as(where + " rebuilt from the decoded values").isEqualTo(p.payload());
            TestFrames.assertRenders(p, where);
            String name = mad.cmAttribute().longName() + " (" + mad.cmAttribute().shortName() + ")";
            assertThat(PacketSummary.of(p)).as(where).contains("  CM " + name + " ");
            String detail = PacketDetail.of(p);
            for (MadFields.CmValue v : mad.cm()) {
                if (v.field().kind() != CmField.Kind.RESERVED) {
                    assertThat(detail).as(where).contains("            " + v.field().label() + " ");
                }
            }
            Map<String, Object> json = StrictJson.parseObject(PacketJson.of(p));
            @SuppressWarnings("unchecked")
            Map<String, Object> cm = (Map<String, Object>) json.get("cm");
            assertThat(cm.get("message")).as(where).isEqualTo(mad.cmAttribute().shortName());
            assertThat(cm.get("name")).as(where).isEqualTo(mad.cmAttribute().longName());
            if (mad.cmAttribute() == CmAttribute.REQ) {
                assertThat(mad.ipCm()).as(where + " IP CM header").isNotNull();
                assertThat(detail).contains("  IP CM     version 0.0  IPv4  reserved 0x0  10.77.0.2:");
                assertThat(cm).containsKey("ip_cm");
            }
        }
        assertThat(mads).isGreaterThan(1);
    }

    @Test
    void rpingsRequestReadsAsTheReadmeSaysInEveryView() {
        Path file = GoldenCaptures.cmFile("cm_rping_v4.pcap");
        CapturedFrame f = CaptureReader.readAll(file).getFirst();
        DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());

        assertThat(PacketSummary.of(p)).contains("UD SEND_ONLY  qp=0x000001", "CM ConnectRequest (REQ) comm_id=0xab332b41 "
                + "service=TCP:7174 qpn=0x000011 psn=0x91e6a4 mtu=1024 resp_res=1 init_depth=1 retry=7 rnr_retry=7 "
                + "10.77.0.2:43847 -> 10.77.0.3:7174  icrc=ok");
        assertThat(PacketDetail.of(p)).contains(
                "  CM REQ    ConnectRequest\n",
                "service ID                       0x0000000001061c06 (TCP:7174)\n",
                "primary local port GID           ::ffff:10.77.0.2\n",
                "primary flow label               0x4d99f\n",
                "remote CM response timeout       20 (4.29 s)\n",
                "primary local ACK timeout        19 (2.15 s)\n",
                "path packet payload MTU          3 (1024)\n");
        Map<String, Object> json = StrictJson.parseObject(PacketJson.of(p));
        @SuppressWarnings("unchecked")
        Map<String, Object> cm = (Map<String, Object>) json.get("cm");
        assertThat(cm.get("local_qpn")).isEqualTo(new BigDecimal(0x11));
        assertThat(cm.get("service")).isEqualTo("TCP:7174");
        assertThat(cm.get("service_id")).isEqualTo(new BigDecimal(0x0000000001061c06L));
        assertThat(cm.get("path_mtu_bytes")).isEqualTo(new BigDecimal(1024));
        assertThat(cm.get("srq")).isEqualTo(false);
        @SuppressWarnings("unchecked")
        Map<String, Object> ip = (Map<String, Object>) cm.get("ip_cm");
        assertThat(ip).containsEntry("source", "10.77.0.2").containsEntry("destination", "10.77.0.3")
                .containsEntry("source_port", new BigDecimal(43847)).containsEntry("destination_port", new BigDecimal(7174))
                .containsEntry("port_space", "TCP");
    }

    @Test
    void theRefusalNamesItsReasonInEveryView() {
        List<CapturedFrame> frames = CaptureReader.readAll(GoldenCaptures.cmFile("cm_refused.pcap"));
        CapturedFrame f = frames.get(1);
        DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());

        assertThat(PacketSummary.of(p)).contains("CM ConnectReject (REJ) comm_id=0x00000000 remote_comm_id=0xa3332b41 "
                + "rejects=REQ reason=8 (invalid service ID)");
        assertThat(PacketDetail.of(p)).contains("reason                           8 (invalid service ID)\n",
                "message rejected                 0 (REQ)\n", "additional reject information    72 bytes, all zero\n");
        @SuppressWarnings("unchecked")
        Map<String, Object> cm = (Map<String, Object>) StrictJson.parseObject(PacketJson.of(p)).get("cm");
        assertThat(cm).containsEntry("reason", new BigDecimal(8)).containsEntry("reason_name", "invalid service ID")
                .containsEntry("message_rejected_name", "REQ");
    }

    /** QP1 takes 256-byte MADs only: a UD SEND to it of any other length is malformed, its BTH and DETH still shown. */
    @Test
    void aMadOfAnyOtherLengthIsMalformedAndKeepsItsHeaders() {
        for (int length : new int[] {0, 1, 23, 24, 100, 232, 252, 255, 257, 260, 512}) {
            byte[] mad = new byte[length];
            if (length >= MadHeaderFlyweight.LENGTH) {
                new MadHeaderFlyweight().wrap(ByteBuffer.wrap(mad), 0).setCm(CmAttribute.REQ, 42);
            }
            String where = "MAD of " + length + " bytes";
            DissectedPacket p = dissector.dissect(1, 0, gmp(mad, MadHeaderFlyweight.GSI_QPN), io.jrxe.wire.framing.LinkType.ETHERNET);
            TestFrames.assertRenders(p, where);
            assertThat(p.kind()).as(where).isEqualTo(Kind.MALFORMED);
            assertThat(p.malformedReason()).isEqualTo("a MAD is 256 bytes, but this one to QP1 has " + length);
            assertThat(p.mad()).isNull();
            assertThat(p.extension(HeaderFields.Deth.class)).as(where).isNotNull();
            assertThat(p.payload()).hasSize(length);
            assertThat(p.icrcOk()).isTrue();
        }
    }

    /** Random bytes under every CM attribute (and unknown ones, and other classes): decoded, rendered, never a throw. */
    @Test
    void randomMadsOfEveryKindDecodeAndRender() {
        Random random = new Random(0x5EED_C0DEL);
        int[] attributes = {0x0001, 0x0010, 0x0011, 0x0012, 0x0013, 0x0014, 0x0015, 0x0016, 0x0017, 0x0018, 0x0019,
            0x001A, 0x0000, 0x0020, 0xFFFF};
        for (int round = 0; round < 40; round++) {
            for (int attribute : attributes) {
                byte[] mad = new byte[MadHeaderFlyweight.MAD_LENGTH];
                random.nextBytes(mad);
                MadHeaderFlyweight h = new MadHeaderFlyweight().wrap(ByteBuffer.wrap(mad), 0);
                h.managementClass(round % 5 == 4 ? 0x03 : MadHeaderFlyweight.MGMT_CLASS_CM).attributeId(attribute);
                if (round % 2 == 0 && (attribute == 0x0010 || attribute == 0x0017)) {
                    // An IP CM service ID, so that the IP CM header (with whatever IP version the bytes hold) is decoded.
                    CmField service = attribute == 0x0010 ? ReqFlyweight.SERVICE_ID : io.jrxe.wire.cm.SidrReqFlyweight.SERVICE_ID;
                    service.set(ByteBuffer.wrap(mad), MadHeaderFlyweight.LENGTH, IpCmServiceId.of(PortSpace.UDP, random.nextInt(65536)));
                }
                String where = String.format("round %d attribute 0x%04x", round, attribute);
                DissectedPacket p = dissector.dissect(1, 0, gmp(mad, MadHeaderFlyweight.GSI_QPN), io.jrxe.wire.framing.LinkType.ETHERNET);
                TestFrames.assertRenders(p, where);
                assertThat(p.kind()).as(where).isEqualTo(Kind.ROCE);
                MadFields m = p.mad();
                assertThat(m).as(where).isNotNull();
                assertThat(m.attributeId()).isEqualTo(attribute);
                if (!m.isCm()) {
                    assertThat(m.cmAttribute()).isNull();
                    assertThat(PacketSummary.of(p)).contains(String.format("MAD SA %s attr=0x%04x", CmText.method(m.method()), attribute));
                    assertThat(StrictJson.parseObject(PacketJson.of(p))).containsKey("mad").doesNotContainKey("cm");
                    continue;
                }
                CmAttribute a = CmAttribute.of(attribute);
                assertThat(m.cmAttribute()).isEqualTo(a);
                assertThat(m.cm()).hasSize(a == null ? 0 : a.fields().size());
                assertThat(rebuild(m)).as(where).isEqualTo(a != null && a.isMessage() ? mad : headerOnly(mad));
                if (a == null) {
                    assertThat(PacketSummary.of(p)).contains(String.format("CM attribute 0x%04x", attribute));
                }
            }
        }
    }

    @Test
    void aUdSendToAnotherQpIsNoMad() {
        byte[] mad = new byte[MadHeaderFlyweight.MAD_LENGTH];
        new MadHeaderFlyweight().wrap(ByteBuffer.wrap(mad), 0).setCm(CmAttribute.REQ, 1);
        DissectedPacket p = dissector.dissect(1, 0, gmp(mad, 0x11), io.jrxe.wire.framing.LinkType.ETHERNET);
        assertThat(p.kind()).isEqualTo(Kind.ROCE);
        assertThat(p.mad()).isNull();
        assertThat(PacketSummary.of(p)).doesNotContain("CM ");
        assertThat(StrictJson.parseObject(PacketJson.of(p))).doesNotContainKey("mad");
    }

    /** A UD SEND ONLY from QP1 to {@code destQpn} carrying {@code payload}, framed over IPv4 with a right ICRC. */
    private static byte[] gmp(byte[] payload, int destQpn) {
        byte[] roce = new byte[BthFlyweight.LENGTH + DethFlyweight.LENGTH + payload.length + 4];
        ByteBuffer b = ByteBuffer.wrap(roce);
        new BthFlyweight().wrap(b, 0).set(Opcode.UD_SEND_ONLY.code(), false, 0, 0xFFFF, destQpn, true, 7);
        new DethFlyweight().wrap(b, BthFlyweight.LENGTH).set(MadHeaderFlyweight.GSI_QKEY, MadHeaderFlyweight.GSI_QPN);
        b.put(BthFlyweight.LENGTH + DethFlyweight.LENGTH, payload);
        return TestFrames.v4(roce);
    }

    /** The MAD again from its decoded values only: the header through its setters, the message through its fields. */
    static byte[] rebuild(MadFields mad) {
        ByteBuffer b = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
        new MadHeaderFlyweight().wrap(b, 0).baseVersion(mad.baseVersion()).managementClass(mad.managementClass())
                .classVersion(mad.classVersion()).method(mad.method()).status(mad.status())
                .classSpecific(mad.classSpecific()).transactionId(mad.transactionId()).attributeId(mad.attributeId())
                .reserved(mad.reserved()).attributeModifier(mad.attributeModifier());
        for (MadFields.CmValue v : mad.cm()) {
            if (v.field().isByteRange()) {
                v.field().copyFrom(b, MadHeaderFlyweight.LENGTH, v.bytes(), 0, v.bytes().length);
            } else {
                v.field().set(b, MadHeaderFlyweight.LENGTH, v.number());
            }
        }
        return b.array();
    }

    private static byte[] headerOnly(byte[] mad) {
        byte[] copy = new byte[mad.length];
        System.arraycopy(mad, 0, copy, 0, MadHeaderFlyweight.LENGTH);
        return copy;
    }
}
