package io.jrxe.tools.analyze;

import io.jrxe.wire.capture.CaptureStream;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.capture.Tshark;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the analysis reads of every packet (its opcode, destination QP, PSN, ack request, AETH, RETH length and
 * DETH source QP) is what Wireshark's tshark decodes, for every packet tshark decodes: kernel rxe's captures in
 * testdata (data path, RDMA CM, FLUSH and ATOMIC WRITE) and jrxe's captures of faults on the simulated network.
 */
class TsharkAgreementTest {
    /** frame.number counts across the joined captures: the test keeps each capture's own count for its messages. */
    private static final String[] FIELDS = {"frame.number", "infiniband.bth.opcode", "infiniband.bth.destqp",
        "infiniband.bth.psn", "infiniband.bth.a", "infiniband.aeth.syndrome", "infiniband.aeth.msn",
        "infiniband.reth.dmalen", "infiniband.deth.srcqp"};

    @TempDir
    static Path dir;

    @BeforeAll
    static void captures() throws Exception {
        ScriptedFaults.write(dir.resolve("scripted-all.pcapng"), dir.resolve("scripted-requester.pcapng"),
                dir.resolve("scripted-responder.pcapng"));
        RandomFaults.write(dir.resolve("random-all.pcapng"), dir.resolve("random-requester.pcapng"),
                dir.resolve("random-responder.pcapng"), 20);
    }

    @Test
    void everyPacketTsharkDecodesReadsTheSame() {
        Tshark.assumeInstalled();
        List<Path> captures = new ArrayList<>(GoldenCaptures.allFiles());
        captures.addAll(List.of(GoldenCaptures.trixieDirectory().resolve("placement/rxe_requester_v4.pcap"),
                GoldenCaptures.trixieDirectory().resolve("placement/jrxe_requester_ibta_icrc_v6.pcap"),
                GoldenCaptures.faultsDirectory().resolve("netem_write_bw.pcap"),
                GoldenCaptures.faultsDirectory().resolve("rnr_send_bw.pcap"),
                dir.resolve("scripted-all.pcapng"), dir.resolve("random-all.pcapng")));
        Iterator<List<String>> rows = Tshark.fieldsOfAll(captures, dir, FIELDS).iterator();
        long compared = 0;
        for (Path capture : captures) {
            compared += compare(capture, rows);
        }
        assertThat(rows.hasNext()).as("tshark listed no frame beyond the captures'").isFalse();
        assertThat(compared).isGreaterThan(5_000);
    }

    /**
     * Compares every frame of {@code capture} that tshark decodes as InfiniBand with the next of tshark's rows (one
     * per frame of the captures joined in order); returns how many.
     */
    private static long compare(Path capture, Iterator<List<String>> rows) {
        PacketParser parser = new PacketParser();
        RocePacket p = new RocePacket();
        long compared = 0;
        int frame = 0;
        try (CaptureStream in = new CaptureStream(capture)) {
            while (in.next()) {
                frame++;
                String where = capture.getFileName() + " frame " + frame;
                assertThat(rows.hasNext()).as("tshark listed %s", where).isTrue();
                List<String> row = rows.next();
                PacketParser.Kind kind = parser.parse(in.data(), in.capturedLength(), in.originalLength(), in.linkType(), p);
                if (row.get(1).isEmpty()) {
                    continue;
                }
                assertThat(kind).as(where).isEqualTo(PacketParser.Kind.ROCE);
                assertThat(p.opcodeCode).as(where).isEqualTo(Integer.parseInt(row.get(1)));
                assertThat(p.destQpn).as(where).isEqualTo(Integer.decode(row.get(2)));
                assertThat(p.psn).as(where).isEqualTo(Integer.parseInt(row.get(3)));
                assertThat(p.ackRequest).as(where).isEqualTo(row.get(4).equals("1"));
                assertThat(p.syndrome).as(where).isEqualTo(row.get(5).isEmpty() ? -1 : Integer.parseInt(row.get(5)));
                if (!row.get(6).isEmpty()) {
                    assertThat(p.msn).as(where).isEqualTo(Integer.parseInt(row.get(6)));
                }
                if (!row.get(7).isEmpty()) {
                    assertThat(p.dmaLength).as(where).isEqualTo(Long.parseLong(row.get(7)));
                }
                assertThat(p.dethSrcQp).as(where).isEqualTo(row.get(8).isEmpty() ? -1 : Integer.decode(row.get(8)));
                compared++;
            }
        }
        assertThat(compared).as("%s: packets tshark decoded", capture).isPositive();
        return compared;
    }
}
