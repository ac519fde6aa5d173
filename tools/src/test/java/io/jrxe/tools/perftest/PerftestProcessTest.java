package io.jrxe.tools.perftest;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import io.jrxe.tools.perftest.PerftestPair.Run;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import static io.jrxe.tools.perftest.PerftestPair.BW_ROW;
import static io.jrxe.tools.perftest.PerftestPair.CHILD_SECONDS;
import static io.jrxe.tools.perftest.PerftestPair.addressesCross;
import static io.jrxe.tools.perftest.PerftestPair.bwRowsPositive;
import static io.jrxe.tools.perftest.PerftestPair.latRowsPositive;
import static io.jrxe.tools.perftest.PerftestPair.rows;
import static io.jrxe.tools.perftest.PerftestPair.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every perftest command, jrxe against jrxe across two JVMs ({@link PerftestPair}). Outputs are parsed: the header,
 * both QPs' lines agreeing with each other, the table and positive numbers.
 */
class PerftestProcessTest {
    @Test
    void writeBandwidth() throws Exception {
        Run r = run("write-bw", 19401, "-n", "200", "-s", "16384");
        List<String> c = rows(r.client(), "RDMA_Write BW Test", true, "WRITE");
        List<String> s = rows(r.server(), "RDMA_Write BW Test", true, "WRITE");
        bwRowsPositive(c, 16384, 200);
        assertThat(s).as("the server prints the client's report, sent over TCP").isEqualTo(c);
        assertThat(r.client()).contains(" TX depth        : 128", " CQ Moderation   : 1", " Max inline data : 0[B]");
        assertThat(r.server()).doesNotContain(" TX depth        : 128");
        addressesCross(r);
        assertThat(Double.parseDouble(BW_ROW.matcher(c.getFirst()).results().findFirst().orElseThrow().group(3))).as("peak").isPositive();
    }

    @Test
    void writeBandwidthOverTwoQpsInGbits() throws Exception {
        Run r = run("write-bw", 19402, "-n", "100", "-q", "2", "--report_gbits", "-s", "4096");
        assertThat(r.client()).contains(PerftestFormat.BW_HEADER_GB, " Number of qps   : 2\t\tTransport type : IB");
        assertThat(r.client().stream().filter(l -> l.startsWith(" local address")).count()).isEqualTo(2);
        addressesCross(r);
        int at = r.client().indexOf(PerftestFormat.BW_HEADER_GB);
        Matcher m = BW_ROW.matcher(r.client().get(at + 1));
        assertThat(m.matches()).isTrue();
        assertThat(m.group(2)).as("iterations of both QPs").isEqualTo("200");
    }

    @Test
    void writeBandwidthAllSizes() throws Exception {
        Run r = run("write-bw", 19403, "-a", "-n", "5", "--if-mtu", "4200");
        List<String> c = rows(r.client(), "RDMA_Write BW Test", true, "WRITE");
        assertThat(c).hasSize(23);
        for (int i = 0; i < 23; i++) {
            assertThat(c.get(i)).startsWith(String.format(" %-7d    5 ", 1L << (i + 1)));
        }
        bwRowsPositive(c, 0, 5);
        assertThat(r.client()).contains(" Mtu             : 4096[B]");
        assertThat(rows(r.server(), "RDMA_Write BW Test", true, "WRITE")).containsExactly(c.getLast());
    }

    @Test
    void writeBandwidthForADuration() throws Exception {
        Run r = run("write-bw", 19412, "-D", "1", "-s", "4096");
        List<String> c = rows(r.client(), "RDMA_Write BW Test", true, "WRITE");
        assertThat(r.client()).contains(" WARNING: BW peak won't be measured in this run.");
        Matcher m = BW_ROW.matcher(c.getFirst());
        assertThat(m.matches()).isTrue();
        assertThat(Long.parseLong(m.group(2))).as("iterations done in the second").isPositive();
        assertThat(m.group(3)).as("no peak in duration mode").isEqualTo("0.00");
        assertThat(Double.parseDouble(m.group(4))).isPositive();
        assertThat(rows(r.server(), "RDMA_Write BW Test", true, "WRITE")).isEqualTo(c);
    }

    @Test
    void writeLatency() throws Exception {
        Run r = run("write-lat", 19404, "-n", "100");
        latRowsPositive(rows(r.client(), "RDMA_Write Latency Test", false, "WRITE"), 2, 100);
        latRowsPositive(rows(r.server(), "RDMA_Write Latency Test", false, "WRITE"), 2, 100);
        assertThat(r.client()).contains(" TX depth        : 1");
        addressesCross(r);
    }

    @Test
    void readBandwidth() throws Exception {
        Run r = run("read-bw", 19405, "-n", "100", "-o", "4");
        List<String> c = rows(r.client(), "RDMA_Read BW Test", true, "READ");
        bwRowsPositive(c, 65536, 100);
        assertThat(rows(r.server(), "RDMA_Read BW Test", true, "READ")).isEqualTo(c);
        assertThat(r.client()).contains(" Outstand reads  : 4");
        addressesCross(r);
    }

    @Test
    void readLatency() throws Exception {
        Run r = run("read-lat", 19406, "-n", "100", "-s", "64");
        latRowsPositive(rows(r.client(), "RDMA_Read Latency Test", false, "READ"), 64, 100);
        assertThat(r.server()).doesNotContain(PerftestFormat.LAT_HEADER).contains(" Outstand reads  : 128");
        addressesCross(r);
    }

    @Test
    void sendBandwidth() throws Exception {
        Run r = run("send-bw", 19407, "-n", "100", "-s", "8192");
        List<String> c = rows(r.client(), "Send BW Test", true, "SEND");
        List<String> s = rows(r.server(), "Send BW Test", true, "SEND");
        bwRowsPositive(c, 8192, 100);
        bwRowsPositive(s, 8192, 100);
        assertThat(r.server()).contains(" WARNING: BW peak won't be measured in this run.", " RX depth        : 100");
        assertThat(BW_ROW.matcher(s.getFirst()).results().findFirst().orElseThrow().group(3)).isEqualTo("0.00");
        addressesCross(r);
    }

    @Test
    void sendLatency() throws Exception {
        Run r = run("send-lat", 19408, "-n", "100", "-s", "1500");
        latRowsPositive(rows(r.client(), "Send Latency Test", false, "SEND"), 1500, 100);
        latRowsPositive(rows(r.server(), "Send Latency Test", false, "SEND"), 1500, 100);
        addressesCross(r);
    }

    @Test
    void atomicBandwidth() throws Exception {
        Run r = run("atomic-bw", 19409, "-n", "100", "-A", "CMP_AND_SWAP");
        List<String> c = rows(r.client(), "Atomic CMP_AND_SWAP BW Test", true, "ATOMIC");
        bwRowsPositive(c, 8, 100);
        assertThat(rows(r.server(), "Atomic CMP_AND_SWAP BW Test", true, "ATOMIC")).isEqualTo(c);
        addressesCross(r);
    }

    @Test
    void atomicLatency() throws Exception {
        Run r = run("atomic-lat", 19410, "-n", "100");
        latRowsPositive(rows(r.client(), "Atomic FETCH_AND_ADD Latency Test", false, "ATOMIC"), 8, 100);
        addressesCross(r);
    }

    @Test
    void jsonForScripts() throws Exception {
        try (ChildJrxe server = ChildJrxe.start("send-lat", "--addr", "127.0.1.1", "-p", "19411", "-n", "50")) {
            server.awaitLine(l -> l.equals("* Waiting for client to connect... *"), CHILD_SECONDS);
            InProcess client = InProcess.run("send-lat", "--addr", "127.0.1.2", "-d", "jrxe-pt-json", "-p", "19411", "-n", "50",
                    "--json", "127.0.1.1");
            assertThat(client.status()).as(client.toString()).isZero();
            assertThat(server.waitFor(CHILD_SECONDS)).isZero();
            assertThat(client.lines()).hasSize(1);
            String json = client.out().strip();
            assertThat(json).startsWith("{\"test_info\": {").endsWith("]}")
                    .contains("\"test\": \"Send_Latency_Test\"", "\"side\": \"client\"", "\"remote_version\": \"6.10\"",
                            "\"results\": [{\"MsgSize\": 2, \"n_iterations\": 50, \"t_min\": ");
        }
    }

    /**
     * The server dies in the middle of the run: the client's WRITEs find no responder, are sent again retry_cnt (7)
     * times, then complete with RETRY_EXC_ERR. The client names the status as ibv_wc_status_str does, prints its
     * counters (--counters) although it failed, and exits non-zero.
     */
    @Test
    void aClientWhoseServerDiesFailsWithRetryExceeded() throws Exception {
        try (ChildJrxe server = ChildJrxe.start("write-bw", "--addr", "127.0.1.1", "-p", "19413", "-D", "30")) {
            server.awaitLine(l -> l.equals("* Waiting for client to connect... *"), CHILD_SECONDS);
            CompletableFuture<InProcess> client = CompletableFuture.supplyAsync(() -> InProcess.run("write-bw", "--addr",
                    "127.0.1.2", "-d", "jrxe-pt-dies", "-p", "19413", "-D", "30", "--counters", "127.0.1.1"), Thread::startVirtualThread);
            server.awaitLine(l -> l.equals(PerftestFormat.BW_HEADER_MB), CHILD_SECONDS);   // past the last sync: data flows
            server.close();
            InProcess c = client.get(CHILD_SECONDS, TimeUnit.SECONDS);
            assertThat(c.status()).as(c.toString()).isNotZero();
            assertThat(c.err()).as(c.toString())
                    .contains("Completion with error at send: status RETRY_EXC_ERR (12, transport retry counter exceeded)")
                    .containsPattern("counters of jrxe-pt-dies:.* retry_exceeded_err=1\\b");
        }
    }
}
