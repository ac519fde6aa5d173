package io.jrxe.tools.analyze;

import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.CnpWriter;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What analyze makes of congestion signals: a requester's SENDs of which some arrive marked CE, the responder's CNPs
 * back to the requester's QP; each counted on the side that sent it, with a finding naming the first one's frame.
 */
class CongestionAnalysisTest {
    private static final String REQUESTER = "10.9.0.1";
    private static final String RESPONDER = "10.9.0.2";

    @TempDir
    Path dir;

    @Test
    void cnpsAndCeMarksAreCountedPerConnectionAndSide() throws Exception {
        Path capture = dir.resolve("congested.pcapng");
        try (PcapngWriter w = new PcapngWriter(capture)) {
            int i = w.addInterface("lo", LinkType.ETHERNET, 0);
            long t = 0;
            for (int psn = 0; psn < 6; psn++) {
                int tos = psn == 2 || psn == 3 || psn == 5 ? 0x03 : 0x02; // three marked CE on the way, ECT(0) otherwise
                write(w, i, t += 1_000, tos, send(psn, psn == 5), REQUESTER, RESPONDER, 49_152);
                if (psn == 2 || psn == 5) {
                    write(w, i, t += 1_000, 0, cnp(), RESPONDER, REQUESTER, 49_153);
                }
            }
            write(w, i, t + 1_000, 0, ack(5), RESPONDER, REQUESTER, 49_153);
        }
        AnalysisJson a = AnalysisJson.of(capture);
        long cnps = 0;
        long marked = 0;
        for (Map<String, Object> c : a.connections()) {
            for (Map<String, Object> side : AnalysisJson.sides(c)) {
                boolean requester = side.get("address").toString().startsWith(REQUESTER);
                long sideCnps = AnalysisJson.number(side, "cnps");
                long sideMarked = AnalysisJson.number(side, "ecn_marked");
                assertThat(requester ? sideCnps : sideMarked).as("side %s", side.get("address")).isZero();
                cnps += sideCnps;
                marked += sideMarked;
            }
        }
        assertThat(cnps).as("CNPs from the responder").isEqualTo(2);
        assertThat(marked).as("CE-marked packets from the requester").isEqualTo(3);
        assertThat(a.findings("cnp")).singleElement().satisfies(f -> {
            assertThat(f.side()).startsWith(RESPONDER);
            assertThat(f.text()).contains("2 congestion notification packets", "the first #4");
        });
        assertThat(a.findings("ecn")).singleElement().satisfies(f -> {
            assertThat(f.side()).startsWith(REQUESTER);
            assertThat(f.text()).contains("3 packets", "the first #3");
        });
    }

    private static byte[] send(int psn, boolean ackRequest) {
        byte[] p = new byte[Opcode.RC_SEND_ONLY.headerLength() + 16 + IcrcCalculator.LENGTH];
        new BthFlyweight().wrap(ByteBuffer.wrap(p), 0).set(Opcode.RC_SEND_ONLY.code(), false, 0, BthFlyweight.DEFAULT_PKEY,
                0x11, ackRequest, psn);
        return p;
    }

    private static byte[] cnp() {
        byte[] p = new byte[CnpWriter.LENGTH + IcrcCalculator.LENGTH];
        new CnpWriter().write(ByteBuffer.wrap(p), 0, BthFlyweight.DEFAULT_PKEY, 0x22);
        return p;
    }

    private static byte[] ack(int psn) {
        Opcode op = Opcode.RC_ACKNOWLEDGE;
        byte[] p = new byte[op.headerLength() + IcrcCalculator.LENGTH];
        ByteBuffer b = ByteBuffer.wrap(p);
        new BthFlyweight().wrap(b, 0).set(op.code(), false, 0, BthFlyweight.DEFAULT_PKEY, 0x22, false, psn);
        new AethFlyweight().wrap(b, op.offsetOf(ExtensionHeader.AETH)).set(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), 1);
        return p;
    }

    private static void write(PcapngWriter w, int iface, long time, int tos, byte[] roce, String src, String dst, int srcPort) {
        byte[] frame = SamplePackets.frame(roce, src, dst, srcPort, (int) (time / 1_000), tos);
        w.write(iface, time, frame, 0, frame.length, null);
    }
}
