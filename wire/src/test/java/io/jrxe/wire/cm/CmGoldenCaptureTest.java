package io.jrxe.wire.cm;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.header.Flyweight;
import io.jrxe.wire.header.HeaderField;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Transport;
import io.jrxe.wire.port.RoceSourcePort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every CM MAD the kernel's CM sent in testdata/rxe-cm decodes to what Wireshark reads from it,
 * and jrxe builds the same 256 bytes again from the decoded values, once through the named
 * setters and once through the field tables the dissector walks.
 */
class CmGoldenCaptureTest {
    /** One captured CM MAD: where it is, who sent it (IP address), its 256 bytes, and its attribute. */
    record Mad(String where, long frame, String sender, byte[] bytes, CmAttribute attribute) {
        ByteBuffer buffer() {
            return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
        }
    }

    static List<Path> cmFiles() {
        return GoldenCaptures.cmFiles();
    }

    /** The MADs of a capture: every UD SEND ONLY to QP1. */
    static List<Mad> mads(Path file) {
        Dissector dissector = new Dissector();
        List<Mad> mads = new ArrayList<>();
        for (CapturedFrame f : CaptureReader.readAll(file)) {
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            if (p.opcode() == Opcode.UD_SEND_ONLY && p.bth().destQpn() == MadHeaderFlyweight.GSI_QPN) {
                String where = file.getFileName() + " frame " + f.frameNumber();
                assertThat(p.payload()).as(where).hasSize(MadHeaderFlyweight.MAD_LENGTH);
                MadHeaderFlyweight header = new MadHeaderFlyweight().wrap(ByteBuffer.wrap(p.payload()), 0);
                mads.add(new Mad(where, f.frameNumber(), ip(p.ip().src()), p.payload(), CmAttribute.of(header.attributeId())));
            }
        }
        return mads;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void theCapturesHoldTheMessagesTheirReadmeLists(Path file) {
        Map<String, List<CmAttribute>> expected = Map.of(
                "cm_rping_v4.pcap", List.of(CmAttribute.REQ, CmAttribute.REP, CmAttribute.RTU, CmAttribute.DREQ,
                        CmAttribute.DREP),
                "cm_ucmatose.pcap", List.of(CmAttribute.REQ, CmAttribute.REQ, CmAttribute.REP, CmAttribute.RTU,
                        CmAttribute.REP, CmAttribute.RTU, CmAttribute.DREQ, CmAttribute.DREQ, CmAttribute.DREP, CmAttribute.DREP),
                "cm_refused.pcap", List.of(CmAttribute.REQ, CmAttribute.REJ));
        // ucmatose's two connections overlap, so their REPs and RTUs interleave as the kernels' timing had it:
        // Debian 13's server answered both REQs before either RTU came (testdata/rxe-trixie/README.md).
        if (file.startsWith(GoldenCaptures.trixieDirectory())) {
            expected = new HashMap<>(expected);
            expected.put("cm_ucmatose.pcap", List.of(CmAttribute.REQ, CmAttribute.REQ, CmAttribute.REP, CmAttribute.REP,
                    CmAttribute.RTU, CmAttribute.RTU, CmAttribute.DREQ, CmAttribute.DREQ, CmAttribute.DREP, CmAttribute.DREP));
        }
        String name = file.getFileName().toString();
        assertThat(expected).as("a new CM capture needs its message list here").containsKey(name);
        List<Mad> mads = mads(file);
        assertThat(mads.stream().map(Mad::attribute).toList()).as("%s", file).isEqualTo(expected.get(name));
        for (Mad m : mads) {
            MadHeaderFlyweight h = new MadHeaderFlyweight().wrap(m.buffer(), 0);
            assertThat(h.baseVersion()).as(m.where()).isEqualTo(MadHeaderFlyweight.BASE_VERSION);
            assertThat(h.managementClass()).as(m.where()).isEqualTo(MadHeaderFlyweight.MGMT_CLASS_CM);
            assertThat(h.classVersion()).as(m.where()).isEqualTo(MadHeaderFlyweight.CM_CLASS_VERSION);
            assertThat(h.method()).as(m.where()).isEqualTo(MadHeaderFlyweight.METHOD_SEND);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void everyMadIsRebuiltByteForByteWithTheNamedSetters(Path file) {
        for (Mad m : mads(file)) {
            ByteBuffer rebuilt = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
            copy(MadHeaderFlyweightTest.layout(), m.buffer(), 0, rebuilt, 0);
            copy(CmLayouts.of(m.attribute()), m.buffer(), MadHeaderFlyweight.LENGTH, rebuilt, MadHeaderFlyweight.LENGTH);
            assertThat(rebuilt.array()).as(m.where() + " " + m.attribute()).isEqualTo(m.bytes());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void everyMadIsRebuiltByteForByteThroughItsFieldTable(Path file) {
        byte[] scratch = new byte[CmMessageFlyweight.LENGTH];
        for (Mad m : mads(file)) {
            ByteBuffer rebuilt = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
            rebuilt.put(0, m.bytes(), 0, MadHeaderFlyweight.LENGTH);
            int at = MadHeaderFlyweight.LENGTH;
            for (CmField f : m.attribute().fields()) {
                if (f.isByteRange()) {
                    f.copyTo(m.buffer(), at, scratch, 0);
                    f.copyFrom(rebuilt, at, scratch, 0, f.length());
                } else {
                    f.set(rebuilt, at, f.get(m.buffer(), at));
                }
            }
            assertThat(rebuilt.array()).as(m.where() + " " + m.attribute()).isEqualTo(m.bytes());
        }
    }

    /** rping's and ucmatose's REQs carry the IP CM header; setIpv4 with its values writes the same 36 bytes. */
    @Test
    void theIpCmHeadersAreRebuiltBySetIpv4() {
        int reqs = 0;
        for (Path file : cmFiles()) {
            for (Mad m : mads(file)) {
                if (m.attribute() != CmAttribute.REQ) {
                    continue;
                }
                reqs++;
                ReqFlyweight req = new ReqFlyweight().wrap(m.buffer(), MadHeaderFlyweight.LENGTH);
                assertThat(IpCmServiceId.isIpCm(req.serviceId())).as(m.where()).isTrue();
                IpCmHeaderFlyweight ip = new IpCmHeaderFlyweight().wrap(m.buffer(), req.privateDataOffset());
                ByteBuffer rebuilt = ByteBuffer.allocate(IpCmHeaderFlyweight.LENGTH);
                new IpCmHeaderFlyweight().wrap(rebuilt, 0).setIpv4(ip.sourcePort(), ip.sourceIpv4(), ip.destinationIpv4());
                byte[] captured = new byte[IpCmHeaderFlyweight.LENGTH];
                m.buffer().get(req.privateDataOffset(), captured);
                assertThat(rebuilt.array()).as(m.where()).isEqualTo(captured);
            }
        }
        assertThat(reqs).as("rping's, ucmatose's two and the refused one, in each kernel's captures").isEqualTo(2 * 4);
    }

    /** What testdata/rxe-cm/README.md says the messages hold, read through the flyweights. */
    @Test
    void theReadmesFactsHold() throws Exception {
        List<Mad> rping = mads(GoldenCaptures.cmFile("cm_rping_v4.pcap"));
        ReqFlyweight req = new ReqFlyweight().wrap(rping.get(0).buffer(), MadHeaderFlyweight.LENGTH);
        assertThat(req.localQpn()).isEqualTo(0x11);
        assertThat(req.pathMtu()).as("MTU code 3: 1024").isEqualTo(3);
        assertThat(req.retryCount()).isEqualTo(7);
        assertThat(req.rnrRetryCount()).isEqualTo(7);
        assertThat(IpCmServiceId.portSpace(req.serviceId())).isEqualTo(PortSpace.TCP);
        assertThat(IpCmServiceId.port(req.serviceId())).isEqualTo(7174);
        byte[] gid = new byte[16];
        req.getPrimaryLocalGid(gid, 0);
        assertThat(InetAddress.getByAddress(gid).getHostAddress()).isEqualTo("10.77.0.2");
        req.getPrimaryRemoteGid(gid, 0);
        assertThat(InetAddress.getByAddress(gid).getHostAddress()).isEqualTo("10.77.0.3");
        IpCmHeaderFlyweight ip = new IpCmHeaderFlyweight().wrap(rping.get(0).buffer(), req.privateDataOffset());
        assertThat(ip.ipVersion()).isEqualTo(4);
        assertThat(ip.sourceIpv4()).isEqualTo(0x0a4d0002);
        assertThat(ip.destinationIpv4()).isEqualTo(0x0a4d0003);

        RepFlyweight rep = new RepFlyweight().wrap(rping.get(1).buffer(), MadHeaderFlyweight.LENGTH);
        assertThat(rep.remoteCommId()).as("the REP answers the REQ's ID").isEqualTo(req.localCommId());
        RtuFlyweight rtu = new RtuFlyweight().wrap(rping.get(2).buffer(), MadHeaderFlyweight.LENGTH);
        assertThat(rtu.localCommId()).isEqualTo(req.localCommId());
        assertThat(rtu.remoteCommId()).isEqualTo(rep.localCommId());
        DreqFlyweight dreq = new DreqFlyweight().wrap(rping.get(3).buffer(), MadHeaderFlyweight.LENGTH);
        assertThat(dreq.remoteQpn()).as("the client's DREQ names the server's QP").isEqualTo(rep.localQpn());

        List<Mad> ucmatose = mads(GoldenCaptures.cmFile("cm_ucmatose.pcap"));
        ReqFlyweight first = new ReqFlyweight().wrap(ucmatose.get(0).buffer(), MadHeaderFlyweight.LENGTH);
        ReqFlyweight second = new ReqFlyweight().wrap(ucmatose.get(1).buffer(), MadHeaderFlyweight.LENGTH);
        assertThat(List.of(first.localQpn(), second.localQpn())).containsExactlyInAnyOrder(0x13, 0x14);
        assertThat(first.retryCount()).isEqualTo(5);
        assertThat(first.rnrRetryCount()).isZero();
        assertThat(IpCmServiceId.describe(first.serviceId())).isEqualTo("TCP:7471");

        List<Mad> refused = mads(GoldenCaptures.cmFile("cm_refused.pcap"));
        ReqFlyweight refusedReq = new ReqFlyweight().wrap(refused.get(0).buffer(), MadHeaderFlyweight.LENGTH);
        RejFlyweight rej = new RejFlyweight().wrap(refused.get(1).buffer(), MadHeaderFlyweight.LENGTH);
        assertThat(IpCmServiceId.describe(refusedReq.serviceId())).isEqualTo("TCP:7999");
        assertThat(RejectReason.of(rej.reason())).isEqualTo(RejectReason.INVALID_SERVICE_ID);
        assertThat(rej.messageRejected()).as("a REQ is rejected").isZero();
        assertThat(rej.remoteCommId()).isEqualTo(refusedReq.localCommId());
    }

    /**
     * The evidence that settles the flow label's place where tshark disagrees (see {@link TsharkCm}): every RC
     * packet of a connection, both ways, leaves from the UDP source port that the REQ's primary flow label gives.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void theRequestsFlowLabelIsTheConnectionsUdpSourcePort(Path file) {
        Map<Integer, Integer> flowLabelOfComm = new HashMap<>();
        Map<Integer, Integer> flowLabelOfQp = new HashMap<>();
        for (Mad m : mads(file)) {
            ByteBuffer b = m.buffer();
            if (m.attribute() == CmAttribute.REQ) {
                ReqFlyweight req = new ReqFlyweight().wrap(b, MadHeaderFlyweight.LENGTH);
                flowLabelOfComm.put(req.localCommId(), req.primaryFlowLabel());
                flowLabelOfQp.put(req.localQpn(), req.primaryFlowLabel());
            } else if (m.attribute() == CmAttribute.REP) {
                RepFlyweight rep = new RepFlyweight().wrap(b, MadHeaderFlyweight.LENGTH);
                Integer label = flowLabelOfComm.get(rep.remoteCommId());
                assertThat(label).as("%s answers a REQ", m.where()).isNotNull();
                Integer before = flowLabelOfQp.put(rep.localQpn(), label);
                assertThat(before == null || before.equals(label)).as("%s: one flow label per QP number", m.where()).isTrue();
            }
        }
        Dissector dissector = new Dissector();
        int checked = 0;
        for (CapturedFrame f : CaptureReader.readAll(file)) {
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            if (p.opcode().transport() != Transport.RC) {
                continue;
            }
            Integer label = flowLabelOfQp.get(p.bth().destQpn());
            assertThat(label).as("frame %d goes to a QP a REQ or REP named", f.frameNumber()).isNotNull();
            assertThat(p.udp().srcPort()).as("%s frame %d", file.getFileName(), f.frameNumber())
                    .isEqualTo(RoceSourcePort.ofFlowLabel(label));
            checked++;
        }
        assertThat(checked).as("RC packets in " + file.getFileName()).isEqualTo(switch (file.getFileName().toString()) {
            case "cm_rping_v4.pcap" -> 36;
            case "cm_ucmatose.pcap" -> 32;
            default -> 0;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void everyFieldTsharkDecodesHasTheSameValueInJrxe(Path file) throws Exception {
        Tshark.assumeInstalled();
        List<String> names = TsharkCm.allTsharkNames();
        List<List<String>> rows = Tshark.fields(file, names.toArray(String[]::new));
        int compared = 0;
        for (Mad m : mads(file)) {
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < names.size(); i++) {
                row.put(names.get(i), rows.get((int) m.frame() - 1).get(i));
            }
            MadHeaderFlyweight h = new MadHeaderFlyweight().wrap(m.buffer(), 0);
            long[] header = {h.baseVersion(), h.managementClass(), h.classVersion(), h.method(), h.status(),
                h.classSpecific(), h.transactionId(), h.attributeId(), Integer.toUnsignedLong(h.attributeModifier())};
            int i = 0;
            for (String tshark : TsharkCm.MAD.keySet()) {
                assertThat(TsharkCm.canonical(header[i++])).as("%s %s", m.where(), tshark)
                        .isEqualTo(TsharkCm.canonical(row.get(tshark), false));
            }
            Map<String, CmField> byName = new HashMap<>();
            m.attribute().fields().forEach(f -> byName.put(f.name(), f));
            for (Map.Entry<String, String> e : TsharkCm.fields(m.attribute()).entrySet()) {
                CmField f = byName.get(e.getValue());
                assertThat(f).as("%s has a field %s", m.attribute(), e.getValue()).isNotNull();
                String theirs = TsharkCm.value(row, e.getKey());
                assertThat(theirs).as("%s: tshark decodes %s", m.where(), e.getKey()).isNotEmpty();
                String ours;
                if (f.isByteRange()) {
                    byte[] b = new byte[f.length()];
                    f.copyTo(m.buffer(), MadHeaderFlyweight.LENGTH, b, 0);
                    ours = TsharkCm.canonical(b);
                } else {
                    ours = TsharkCm.canonical(f.get(m.buffer(), MadHeaderFlyweight.LENGTH));
                }
                assertThat(ours).as("%s %s (tshark %s)", m.where(), f.name(), e.getKey())
                        .isEqualTo(TsharkCm.canonical(theirs, f.isByteRange()));
                compared++;
            }
            if (m.attribute() == CmAttribute.REQ) {
                IpCmHeaderFlyweight ip = new IpCmHeaderFlyweight().wrap(m.buffer(),
                        MadHeaderFlyweight.LENGTH + ReqFlyweight.PRIVATE_DATA.byteOffset());
                assertThat((long) ip.majorVersion()).isEqualTo(Long.decode(row.get("infiniband.cm.req.ip_cm.majv")));
                assertThat((long) ip.minorVersion()).isEqualTo(Long.decode(row.get("infiniband.cm.req.ip_cm.minv")));
                assertThat((long) ip.ipVersion()).isEqualTo(Long.decode(row.get("infiniband.cm.req.ip_cm.ipv")));
                assertThat((long) ip.reserved()).isEqualTo(Long.decode(row.get("infiniband.cm.req.ip_cm.reserved")));
                assertThat((long) ip.sourcePort()).isEqualTo(Long.decode(row.get("infiniband.cm.req.ip_cm.sport")));
                assertThat(ip.sourceIpv4()).as(m.where()).isEqualTo(ipv4(row.get("infiniband.cm.req.ip_cm.sip4")));
                assertThat(ip.destinationIpv4()).as(m.where()).isEqualTo(ipv4(row.get("infiniband.cm.req.ip_cm.dip4")));
            }
        }
        assertThat(compared).as("fields compared in " + file.getFileName()).isGreaterThan(40);
    }

    /**
     * Which PSN each side starts sending from, as the kernels did it: the passive side from the REQ's starting PSN,
     * the active side from the REP's (so a starting PSN is what its sender expects to receive first). A CM that
     * sets its QPs up the other way round would see every first packet dropped as out of sequence.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cmFiles")
    void eachSideSendsFromTheStartingPsnItsPeerSent(Path file) {
        // (sender, destination QP) -> the PSN that sender must start from
        Map<String, Integer> expectedFirstPsn = new HashMap<>();
        Map<Integer, Mad> reqByCommId = new HashMap<>();
        for (Mad m : mads(file)) {
            if (m.attribute() == CmAttribute.REQ) {
                reqByCommId.put(new ReqFlyweight().wrap(m.buffer(), MadHeaderFlyweight.LENGTH).localCommId(), m);
            } else if (m.attribute() == CmAttribute.REP) {
                RepFlyweight rep = new RepFlyweight().wrap(m.buffer(), MadHeaderFlyweight.LENGTH);
                Mad reqMad = reqByCommId.get(rep.remoteCommId());
                ReqFlyweight req = new ReqFlyweight().wrap(reqMad.buffer(), MadHeaderFlyweight.LENGTH);
                expectedFirstPsn.put(m.sender() + ">" + req.localQpn(), req.startingPsn());
                expectedFirstPsn.put(reqMad.sender() + ">" + rep.localQpn(), rep.startingPsn());
            }
        }
        Dissector dissector = new Dissector();
        Map<String, Integer> firstPsn = new HashMap<>();
        for (CapturedFrame f : CaptureReader.readAll(file)) {
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            // Requests only: ACKs and READ responses carry the PSNs of the requests they answer.
            boolean request = p.opcode().transport() == Transport.RC && p.opcode() != Opcode.RC_ACKNOWLEDGE
                    && p.opcode() != Opcode.RC_RDMA_READ_RESPONSE_ONLY;
            if (request) {
                firstPsn.putIfAbsent(ip(p.ip().src()) + ">" + p.bth().destQpn(), p.bth().psn());
            }
        }
        assertThat(firstPsn).isEqualTo(expectedFirstPsn);
    }

    private static String ip(byte[] address) {
        try {
            return InetAddress.getByAddress(address).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static int ipv4(String dotted) throws Exception {
        return ByteBuffer.wrap(InetAddress.getByName(dotted).getAddress()).getInt();
    }

    /** Reads every field of {@code from} with its getter and writes it into {@code to} with its setter. */
    private static <F extends Flyweight<F>> void copy(ExpectedLayout<F> layout, ByteBuffer from, int fromOffset,
                                                      ByteBuffer to, int toOffset) {
        F source = layout.harness().factory().get().wrap(from, fromOffset);
        F target = layout.harness().factory().get().wrap(to, toOffset);
        for (HeaderField<F> field : layout.harness().fields()) {
            field.set(target, field.get(source));
        }
    }
}
