package io.jrxe.tools.perfquery;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.dissect.PacketDetail;
import io.jrxe.wire.dissect.PacketJson;
import io.jrxe.wire.dissect.PacketSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe perfquery` against another jrxe process's port (a pingpong server waiting for its client): it prints the
 * target's PortCounters as perfquery does, and PortCountersExtended as JSON; the capture of the query and the
 * answer decodes, in jrxe's dissector and in tshark, as PerfMgmt with the values printed; with --ud-qp the Gets
 * leave from a UD QP of the command's own and the agent answers that QP; a target with no agent gives a one-line
 * error within the timeout.
 */
class PerfqueryProcessTest {
    private static final long CHILD_SECONDS = 90;
    private static final Pattern FIELD = Pattern.compile("^(\\w+):\\.+(\\S+)$");
    private static final Map<String, String> TSHARK = Map.of(
            "PortXmitData", "infiniband.portcounters.portxmitdata",
            "PortRcvData", "infiniband.portcounters.portrcvdata",
            "PortXmitPkts", "infiniband.portcounters.portxmitpkts",
            "PortRcvPkts", "infiniband.portcounters.portrcvpkts",
            "PortSelect", "infiniband.portcounters.portselect");

    @TempDir
    Path dir;

    @Test
    void perfqueryPrintsTheTargetsCountersAsWiresharkDecodesThem() throws Exception {
        Path capture = dir.resolve("perfquery.pcapng");
        Map<String, String> printed = new LinkedHashMap<>();
        try (ChildJrxe server = ChildJrxe.start("pingpong", "--addr", "127.0.74.5", "-p", "19745")) {
            server.awaitLine(l -> l.startsWith("  local address:"), CHILD_SECONDS);
            InProcess query = InProcess.run("perfquery", "--addr", "127.0.74.6", "-d", "jrxe-pq", "--capture",
                    capture.toString(), "127.0.74.5");
            assertThat(query.status()).as(query.toString()).isZero();
            List<String> lines = query.lines();
            assertThat(lines.getFirst()).isEqualTo("# Port counters: 127.0.74.5 port 1 (CapMask: 0x0200)");
            for (String line : lines.subList(1, lines.size())) {
                Matcher m = FIELD.matcher(line);
                assertThat(m.matches()).as(line).isTrue();
                printed.put(m.group(1), m.group(2));
            }
            assertThat(printed.keySet()).containsSubsequence("PortSelect", "CounterSelect", "SymbolErrorCounter",
                    "LinkDownedCounter", "VL15Dropped", "PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts",
                    "PortXmitWait");
            assertThat(Long.parseLong(printed.get("PortXmitPkts"))).as("the ClassPortInfo answer at least").isPositive();
            assertThat(Long.parseLong(printed.get("PortRcvPkts"))).isGreaterThanOrEqualTo(2);

            List<CapturedFrame> frames = CaptureReader.readAll(capture);
            assertThat(frames).as("ClassPortInfo and PortCounters, each asked and answered").hasSize(4);
            CapturedFrame answer = frames.get(3);
            DissectedPacket p = new Dissector().dissect(answer.frameNumber(), answer.timestampNanos(), answer.data(),
                    answer.linkType());
            assertThat(PacketSummary.of(p)).contains("PerfMgmt GetResp PortCounters")
                    .contains("xmit_pkts=" + printed.get("PortXmitPkts"));
            assertThat(p.mad().pmaValue("port_rcv_data").number()).isEqualTo(Long.parseLong(printed.get("PortRcvData")));
            assertThat(PacketDetail.of(p)).contains("  PerfMgmt  PortCounters")
                    .containsPattern("\\n +PortXmitPkts +" + printed.get("PortXmitPkts") + "\\n");
            assertThat(PacketJson.of(p)).contains("\"pma\":{\"attribute\":\"PortCounters\"")
                    .contains("\"port_xmit_pkts\":" + printed.get("PortXmitPkts"));

            InProcess ext = InProcess.run("perfquery", "--addr", "127.0.74.6", "-d", "jrxe-pq", "--ext", "--json",
                    "::ffff:127.0.74.5");
            assertThat(ext.status()).as(ext.toString()).isZero();
            Matcher pkts = Pattern.compile("\"port_xmit_pkts\":(\\d+)").matcher(ext.out());
            assertThat(pkts.find()).as(ext.out()).isTrue();
            assertThat(Long.parseLong(pkts.group(1))).as("two more answers since")
                    .isGreaterThanOrEqualTo(Long.parseLong(printed.get("PortXmitPkts")) + 2);
            assertThat(ext.out()).contains("\"attribute\":\"PortCountersExtended\"", "\"capability_mask\":512");
        }

        Tshark.assumeInstalled();
        String[] names = TSHARK.values().toArray(String[]::new);
        List<List<String>> rows = Tshark.fields(capture, names);
        assertThat(rows).hasSize(4);
        List<String> answerRow = rows.get(3);
        String[] labels = TSHARK.keySet().toArray(String[]::new);
        for (int i = 0; i < labels.length; i++) {
            // tshark shows PortSelect in hex, the counters in decimal.
            assertThat(Long.decode(answerRow.get(i))).as("tshark's " + names[i]).isEqualTo(Long.parseLong(printed.get(labels[i])));
        }
    }

    /** What a program on a kernel device does: its own UD QP with the GSI Q_Key, to QP 1; the answers come back to it. */
    @Test
    void fromAUdQpOfItsOwnTheAnswersComeBackToThatQp() throws Exception {
        Path capture = dir.resolve("ud-qp.pcapng");
        try (ChildJrxe server = ChildJrxe.start("pingpong", "--addr", "127.0.74.11", "-p", "19746")) {
            server.awaitLine(l -> l.startsWith("  local address:"), CHILD_SECONDS);
            InProcess query = InProcess.run("perfquery", "--ud-qp", "--addr", "127.0.74.12", "-d", "jrxe-pq-ud", "--capture",
                    capture.toString(), "--ext", "127.0.74.11");
            assertThat(query.status()).as(query.toString()).isZero();
            assertThat(query.lines().getFirst()).isEqualTo("# Port extended counters: 127.0.74.11 port 1 (CapMask: 0x0200)");
            assertThat(query.out()).containsPattern("(?m)^PortRcvPkts:\\.+[1-9]\\d*$");
        }
        List<DissectedPacket> packets = CaptureReader.readAll(capture).stream()
                .map(f -> new Dissector().dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType())).toList();
        assertThat(packets).as("ClassPortInfo and PortCountersExtended, each asked and answered").hasSize(4);
        int udQp = packets.getFirst().extension(io.jrxe.wire.dissect.HeaderFields.Deth.class).srcQpn();
        assertThat(udQp).as("the Gets' source QP").isGreaterThan(1);
        for (int i = 0; i < 4; i++) {
            DissectedPacket p = packets.get(i);
            assertThat(p.icrcOk()).isTrue();
            assertThat(p.extension(io.jrxe.wire.dissect.HeaderFields.Deth.class).qkey()).isEqualTo(0x8001_0000);
            if (i % 2 == 0) {
                assertThat(p.bth().destQpn()).as("a Get goes to QP 1").isEqualTo(1);
                assertThat(PacketSummary.of(p)).contains("PerfMgmt Get ");
            } else {
                assertThat(p.bth().destQpn()).as("an answer goes to the QP its Get came from").isEqualTo(udQp);
                // Like Wireshark, the dissector reads a payload as a MAD only on its way to QP 1.
                assertThat(PacketSummary.of(p)).contains("UD SEND_ONLY", "src_qp=0x000001", "payload=256");
            }
        }
    }

    @Test
    void aTargetWithoutAnAgentIsAOneLineErrorAfterTheTimeout() {
        InProcess query = InProcess.run("perfquery", "--addr", "127.0.74.7", "-d", "jrxe-pq-none", "--timeout", "1",
                "127.0.74.9");
        assertThat(query.status()).isNotZero();
        assertThat(query.err().strip()).doesNotContain("\n").contains("no answer to a Get of ClassPortInfo from 127.0.74.9");
    }

    @Test
    void aBadTargetAMissingKernelDeviceOrAGidIndexWithoutAUdQpIsRefusedInOneLine() {
        InProcess bad = InProcess.run("perfquery", "--addr", "127.0.74.7", "not-an-address");
        assertThat(bad.status()).isNotZero();
        assertThat(bad.err()).contains("GID_OR_IP not-an-address: not an IP address or GID");
        InProcess kernel = InProcess.run("perfquery", "-d", "rxe0", "127.0.74.5");
        assertThat(kernel.status()).isNotZero();
        // Refused for want of a kernel device here.
        assertThat(kernel.err().strip()).doesNotContain("\n").contains("rxe0");
        InProcess gid = InProcess.run("perfquery", "--addr", "127.0.74.7", "-g", "1", "127.0.74.5");
        assertThat(gid.status()).isNotZero();
        assertThat(gid.err().strip()).doesNotContain("\n").contains("-g/--gid-idx 1: only with --ud-qp or a kernel device");
    }
}
