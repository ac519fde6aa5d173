package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PerfMgmt against the first kernel rxe with a PMA on QP1 (Linux 7.2): after a transfer, `jrxe perfquery --ext`
 * asks rxe0 for its PortCountersExtended over the wire, and the answer holds rxe0's own counters (its sysfs
 * hw_counters, read right after): the packets exactly but for the answer itself, which rxe0 counts after it made
 * it, and the data in units of 4 bytes. rxe0 answers with a blank MAD header (docs/perfmgmt.md), which perfquery
 * takes and says so. The other way, rdma-core 65 has no tool that sends a PerfMgmt MAD to another RoCE port
 * (infiniband-diags' perfquery finds a port by LID or GUID, which RoCE has no subnet administrator to resolve), so a
 * program on rxe0 does: `jrxe perfquery -d rxe0` in the guest sends from a UD QP of rxe0 with the GSI Q_Key, and a
 * jrxe port answers that QP.
 */
@ExtendWith(LabExtension.class)
@OnLabRelease(LabRelease.SID)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SidPerfMgmtInteropTest {
    private static final Pattern FIELD = Pattern.compile("(?m)^(\\w+):\\.+(\\d+)$");
    /** A PerfMgmt answer on the wire, IPv4 header to ICRC: 20 + 8 + 12 (BTH) + 8 (DETH) + 256 (MAD) + 4. */
    private static final long MAD_PACKET_BYTES = 308;

    @Test
    void perfqueryReadsRxe0sExtendedCountersAsRxe0CountsThem(Lab lab) throws Exception {
        Pairings.bandwidth(lab, "write", Server.JRXE, 18764, Gids.IPV4, 20, "");
        // Nothing of the transfer may still leave rxe0 once the query starts: every packet it sends after the answer
        // was made must be the answer.
        lab.awaitGuestCounterSteady("hw_counters/sent_pkts");
        Job.Result query = lab.jrxe("jrxe perfquery", "perfquery", "--ext", "--addr", Lab.HOST4, "--timeout", "30", Lab.GUEST4)
                .await(Duration.ofSeconds(90));
        assertThat(query.exitCode()).as("%s", query).isZero();
        assertThat(query.output()).as("%s", query).contains("# Port extended counters: " + Lab.GUEST4 + " port 1 (CapMask: 0x0200)")
                .contains("answers with a blank MAD header");
        Map<String, Long> printed = new HashMap<>();
        Matcher m = FIELD.matcher(query.output());
        while (m.find()) {
            printed.put(m.group(1), Long.parseLong(m.group(2)));
        }
        long sentPkts = lab.guestCounter("hw_counters/sent_pkts");
        long rcvdPkts = lab.guestCounter("hw_counters/rcvd_pkts");
        long sentBytes = lab.guestCounter("hw_counters/sent_bytes");
        long rcvdBytes = lab.guestCounter("hw_counters/rcvd_bytes");
        System.out.printf("interop: rxe0's PMA said xmit %d pkts / %d x 4 B, rcv %d pkts / %d x 4 B; its hw_counters after: "
                        + "sent %d / %d B, rcvd %d / %d B%n", printed.get("PortXmitPkts"), printed.get("PortXmitData"),
                printed.get("PortRcvPkts"), printed.get("PortRcvData"), sentPkts, sentBytes, rcvdPkts, rcvdBytes);
        assertThat(printed.get("PortXmitPkts")).as("sent, the transfer's WRITEs among them (rxe0 was the client): %s", query)
                .isGreaterThan(20 * 64);
        assertThat(printed.get("PortRcvPkts")).as("received").isEqualTo(rcvdPkts);
        assertThat(printed.get("PortRcvData") * 4).as("received bytes").isBetween(rcvdBytes - 3, rcvdBytes);
        assertThat(sentPkts - printed.get("PortXmitPkts")).as("sent after the answer was made: the answer").isEqualTo(1);
        assertThat(sentBytes - printed.get("PortXmitData") * 4).as("bytes sent after the answer was made")
                .isBetween(MAD_PACKET_BYTES, MAD_PACKET_BYTES + 3);
    }

    /** From the guest, through the native provider: rxe0 carries the Gets, and a jrxe port's PMA answers rxe0's QP. */
    @Test
    void aUdQpOfRxe0AsksAJrxePort(Lab lab) throws Exception {
        try (Job target = lab.jrxe("jrxe pingpong as the target", "pingpong", "--addr", Lab.HOST4, "-p", "18766",
                "--timeout", "200", "--accept-timeout", "200")) {
            target.awaitOutput("local address", Duration.ofSeconds(60));
            Job.Result query = lab.guestNow("cd /tmp && " + Lab.GUEST_JRXE + " perfquery -d rxe0 --ext --timeout 30 "
                    + Lab.HOST4, 150);
            assertThat(query.exitCode()).as("%s", query).isZero();
            assertThat(query.output()).as("%s", query)
                    .contains("# Port extended counters: " + Lab.HOST4 + " port 1 (CapMask: 0x0200)")
                    .doesNotContain("blank MAD header");
            Matcher rcvd = Pattern.compile("(?m)^PortRcvPkts:\\.+(\\d+)$").matcher(query.output());
            assertThat(rcvd.find()).as("%s", query).isTrue();
            assertThat(Long.parseLong(rcvd.group(1))).as("the Gets the jrxe port received: %s", query).isGreaterThanOrEqualTo(2);
        }
    }
}
