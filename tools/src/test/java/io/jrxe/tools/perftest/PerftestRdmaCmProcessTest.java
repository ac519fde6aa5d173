package io.jrxe.tools.perftest;

import io.jrxe.tools.perftest.PerftestPair.Run;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.tools.perftest.PerftestPair.addressesCross;
import static io.jrxe.tools.perftest.PerftestPair.bwRowsPositive;
import static io.jrxe.tools.perftest.PerftestPair.latRowsPositive;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * perftest's -R and -z, jrxe against jrxe across two JVMs ({@link PerftestPair}) on jrxe's emulated connection
 * manager: the exchange over a CM-connected QP, and with -R the test's QPs connected by the CM on the same port.
 */
class PerftestRdmaCmProcessTest {
    private static final String QPS_ON = " rdma_cm QPs\t : ON";
    private static final String QPS_OFF = " rdma_cm QPs\t : OFF";
    private static final String CM_EXCHANGE = " Data ex. method : rdma_cm";

    /** The table rows of one side, after checking that its header tells how it connected. */
    private static List<String> rows(List<String> lines, boolean bw, String qpsLine) {
        assertThat(lines).contains(qpsLine, CM_EXCHANGE);
        assertThat(lines).doesNotContain(" Data ex. method : Ethernet");
        String header = bw ? PerftestFormat.BW_HEADER_MB : PerftestFormat.LAT_HEADER;
        int at = lines.indexOf(header);
        assertThat(at).as("table header in %s", lines).isPositive();
        List<String> rows = new ArrayList<>();
        for (int i = at + 1; i < lines.size() && !lines.get(i).equals(PerftestFormat.RESULT_LINE); i++) {
            rows.add(lines.get(i));
        }
        return rows;
    }

    @Test
    void writeBandwidthOverCmQps() throws Exception {
        Run r = PerftestPair.run("write-bw", 19470, "-R", "-n", "200", "-s", "8192");
        List<String> c = rows(r.client(), true, QPS_ON);
        bwRowsPositive(c, 8192, 200);
        assertThat(rows(r.server(), true, QPS_ON)).isEqualTo(c);
        assertThat(r.server()).contains(" Waiting for client rdma_cm QP to connect");
        assertThat(r.client()).doesNotContain(" Waiting for client rdma_cm QP to connect");
        addressesCross(r);
    }

    @Test
    void readBandwidthOverThreeCmQps() throws Exception {
        Run r = PerftestPair.run("read-bw", 19471, "-R", "-q", "3", "-n", "100", "-s", "4096");
        List<String> c = rows(r.client(), true, QPS_ON);
        bwRowsPositive(c, 4096, 300);
        assertThat(r.client().stream().filter(l -> l.startsWith(" local address:")).count()).isEqualTo(3);
        addressesCross(r);
    }

    @Test
    void sendLatencyOverACmQp() throws Exception {
        Run r = PerftestPair.run("send-lat", 19472, "-R", "-n", "100", "-s", "64");
        latRowsPositive(rows(r.client(), false, QPS_ON), 64, 100);
        latRowsPositive(rows(r.server(), false, QPS_ON), 64, 100);
        addressesCross(r);
    }

    @Test
    void atomicLatencyOverACmQp() throws Exception {
        Run r = PerftestPair.run("atomic-lat", 19473, "-R", "-n", "50");
        latRowsPositive(rows(r.client(), false, QPS_ON), 8, 50);
    }

    /** -z: the exchange through the CM, the QPs connected with the keys it carried (as perftest's binary struct). */
    @Test
    void sendBandwidthWithTheExchangeOnly() throws Exception {
        Run r = PerftestPair.run("send-bw", 19474, "-z", "-n", "100", "-s", "4096");
        List<String> c = rows(r.client(), true, QPS_OFF);
        bwRowsPositive(c, 4096, 100);
        addressesCross(r);
    }
}
