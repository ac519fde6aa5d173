package io.jrxe.tools.perftest;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import io.jrxe.tools.perftest.PerftestPair.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

import static io.jrxe.tools.perftest.PerftestPair.BW_ROW;
import static io.jrxe.tools.perftest.PerftestPair.CHILD_SECONDS;
import static io.jrxe.tools.perftest.PerftestPair.addressesCross;
import static io.jrxe.tools.perftest.PerftestPair.bwRowsPositive;
import static io.jrxe.tools.perftest.PerftestPair.latRowsPositive;
import static io.jrxe.tools.perftest.PerftestPair.rows;
import static io.jrxe.tools.perftest.PerftestPair.run;
import static io.jrxe.tools.perftest.PerftestPair.runEach;
import static io.jrxe.tools.perftest.PerftestPair.runWithNotices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * perftest's other modes, jrxe against jrxe across two JVMs ({@link PerftestPair}): UD and UC QPs, an SRQ, both
 * directions at once (-b), post lists (-l), several QPs (-q), --out_json's file, and the 6.28+ negotiation when both
 * sides announce a version that negotiates.
 */
class PerftestModesProcessTest {
    static final String UD = " Connection type : UD\t\tUsing SRQ      : OFF";
    static final String UC = " Connection type : UC\t\tUsing SRQ      : OFF";

    @Test
    void udSendBandwidthLowersTheDefaultSizeToTheMtu() throws Exception {
        Run r = runWithNotices("send-bw", 19420, "-c", "UD", "-n", "100");
        assertThat(r.clientErr().lines().toList()).containsExactly(" Max msg size in UD is MTU 1024", " Changing to this MTU");
        List<String> c = rows(r.client(), "Send BW Test", true, "SEND", UD);
        List<String> s = rows(r.server(), "Send BW Test", true, "SEND", UD);
        bwRowsPositive(c, 1024, 100);
        bwRowsPositive(s, 1024, 100);
        assertThat(r.server()).contains(" RX depth        : 100");
        addressesCross(r);
    }

    @Test
    void udSendBandwidthOverEverySizeUpToTheMtu() throws Exception {
        Run r = runWithNotices("send-bw", 19421, "-c", "UD", "-a", "-n", "20");
        List<String> c = rows(r.client(), "Send BW Test", true, "SEND", UD);
        assertThat(c).as("2 to 1024 bytes").hasSize(10);
        for (int i = 0; i < 10; i++) {
            assertThat(c.get(i)).startsWith(String.format(" %-7d    20 ", 2L << i));
        }
        assertThat(rows(r.server(), "Send BW Test", true, "SEND", UD)).hasSize(10);
    }

    @Test
    void udSendLatency() throws Exception {
        Run r = run("send-lat", 19422, "-c", "UD", "-n", "100", "-s", "512");
        latRowsPositive(rows(r.client(), "Send Latency Test", false, "SEND", UD), 512, 100);
        latRowsPositive(rows(r.server(), "Send Latency Test", false, "SEND", UD), 512, 100);
        addressesCross(r);
    }

    @Test
    void ucWriteBandwidth() throws Exception {
        Run r = run("write-bw", 19423, "-c", "UC", "-n", "200", "-s", "8192");
        List<String> c = rows(r.client(), "RDMA_Write BW Test", true, "WRITE", UC);
        bwRowsPositive(c, 8192, 200);
        assertThat(rows(r.server(), "RDMA_Write BW Test", true, "WRITE", UC)).isEqualTo(c);
        addressesCross(r);
    }

    @Test
    void ucSendBandwidthOverTwoQps() throws Exception {
        Run r = run("send-bw", 19424, "-c", "UC", "-q", "2", "-n", "100", "-s", "4096");
        List<String> c = rows(r.client(), "Send BW Test", true, "SEND", UC);
        bwRowsPositive(c, 4096, 200);
        bwRowsPositive(rows(r.server(), "Send BW Test", true, "SEND", UC), 4096, 200);
        assertThat(r.client().stream().filter(l -> l.startsWith(" remote address")).count()).isEqualTo(2);
        addressesCross(r);
    }

    @Test
    void sendBandwidthIntoAnSrqOverFourQps() throws Exception {
        Run r = run("send-bw", 19425, "--use-srq", "-q", "4", "-n", "100", "-s", "4096");
        String srq = " Connection type : RC\t\tUsing SRQ      : ON";
        bwRowsPositive(rows(r.client(), "Send BW Test", true, "SEND", srq), 4096, 400);
        bwRowsPositive(rows(r.server(), "Send BW Test", true, "SEND", srq), 4096, 400);
        assertThat(r.server()).contains(" RX depth        : 100");
    }

    @Test
    void sendLatencyThroughAnSrq() throws Exception {
        Run r = run("send-lat", 19426, "--use-srq", "-n", "100");
        String srq = " Connection type : RC\t\tUsing SRQ      : ON";
        latRowsPositive(rows(r.client(), "Send Latency Test", false, "SEND", srq), 2, 100);
        latRowsPositive(rows(r.server(), "Send Latency Test", false, "SEND", srq), 2, 100);
    }

    /**
     * -b: both sides write (or read) and measure; each prints the sum of both reports, so the two rows are the same,
     * and the server's header has the depth of the queue it sends on.
     */
    @ParameterizedTest(name = "{0} -b")
    @CsvSource({"write-bw, RDMA_Write, WRITE, 19427", "read-bw, RDMA_Read, READ, 19428"})
    void oneSidedBandwidthBothWays(String command, String title, String verb, int port) throws Exception {
        Run r = run(command, port, "-b", "-n", "100", "-s", "8192");
        List<String> c = rows(r.client(), title + " Bidirectional BW Test", true, verb);
        bwRowsPositive(c, 8192, 100);
        assertThat(rows(r.server(), title + " Bidirectional BW Test", true, verb)).isEqualTo(c);
        assertThat(r.server()).as("the server sends too").contains(" TX depth        : 100");
    }

    @Test
    void sendBandwidthBothWays() throws Exception {
        Run r = run("send-bw", 19429, "-b", "-n", "200", "-s", "4096");
        List<String> c = rows(r.client(), "Send Bidirectional BW Test", true, "SEND");
        bwRowsPositive(c, 4096, 200);
        assertThat(rows(r.server(), "Send Bidirectional BW Test", true, "SEND")).isEqualTo(c);
        assertThat(r.client()).contains(" RX depth        : 200", " TX depth        : 128");
        assertThat(Double.parseDouble(BW_ROW.matcher(c.getFirst()).results().findFirst().orElseThrow().group(3)))
                .as("both sides measured a peak").isPositive();
    }

    @Test
    void writeBandwidthInPostListsOfFour() throws Exception {
        Run r = run("write-bw", 19430, "-l", "4", "-n", "200", "-s", "4096");
        List<String> c = rows(r.client(), "RDMA_Write Post List BW Test", true, "WRITE");
        bwRowsPositive(c, 4096, 200);
        assertThat(r.client()).contains("Post List requested - CQ moderation will be the size of the post list",
                " Post List       : 4", " CQ Moderation   : 4");
        assertThat(Double.parseDouble(BW_ROW.matcher(c.getFirst()).results().findFirst().orElseThrow().group(3))).as("peak")
                .isPositive();
    }

    @Test
    void theJsonFileAsPerftestWritesIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.json");
        Path serverFile = dir.resolve("server.json");
        List<String> options = List.of("-n", "100", "-s", "4096", "-l", "2", "--out_json", "--out_json_file");
        Run r = runEach("send-bw", 19431, concat(options, serverFile.toString()), concat(options, file.toString()));
        Matcher row = BW_ROW.matcher(rows(r.client(), "Send Post List BW Test", true, "SEND").getFirst());
        assertThat(row.matches()).isTrue();
        String json = Files.readString(file);
        assertThat(json).startsWith("""
                {
                "test_info": {
                "test": "Send_Post_List_BW_Test",
                "Dual_port": "OFF",
                "Device": "jrxe-pt-client",
                "Number_of_qps": 1,
                "Transport_type": "IB",
                "Connection_type": "RC",
                "Using_SRQ": "OFF",
                "PCIe_relax_order": "OFF",
                "ibv_wr_API": "OFF",
                "TX_depth": 100,
                "Post_List": 2,
                "CQ_Moderation": 2,
                "Mtu": 1024,
                "Link_type": "Ethernet",
                "GID_index": 1,
                "Max_inline_data": 0,
                "rdma_cm_QPs": "OFF",
                "Use_ROCm_memory": "OFF",
                "Data_ex_method": "Ethernet"
                },
                "results": {
                "MsgSize": 4096,
                "n_iterations": 100,
                """).matches("(?s).*\"BW_peak\": \\d+\\.\\d\\d,\n\"BW_average\": \\d+\\.\\d\\d,\n\"MsgRate\": \\d+\\.\\d{6}\n}\n}\n");
        assertThat(json).contains("\"BW_average\": " + row.group(4) + ",").contains("\"MsgRate\": " + row.group(5) + "\n");
        assertThat(Files.readString(serverFile)).as("the server receives: its depth, no peak")
                .contains("\"Device\": \"jrxe0\",", "\"ibv_wr_API\": \"OFF\",\n\"Post_List\": 2,\n\"RX_depth\": 100,\n",
                        "\"BW_peak\": 0.00,\n").doesNotContain("TX_depth");
    }

    private static List<String> concat(List<String> a, String b) {
        List<String> all = new ArrayList<>(a);
        all.add(b);
        return all;
    }

    /** Announcing 6.29, both sides negotiate as perftest 6.29 does, and go on to the test when their settings agree. */
    @Test
    void twoJrxesThatAnnounce629Negotiate() throws Exception {
        Run r = run("read-bw", 19432, "--announce-version", "6.29", "-n", "100", "-s", "4096");
        bwRowsPositive(rows(r.client(), "RDMA_Read BW Test", true, "READ"), 4096, 100);
    }

    @Test
    void settingsThatDifferEndBothSidesAtTheNegotiation() throws Exception {
        try (ChildJrxe server = ChildJrxe.start("write-bw", "--addr", "127.0.1.1", "-p", "19433", "--announce-version", "6.29",
                "-n", "200")) {
            server.awaitLine(l -> l.equals("* Waiting for client to connect... *"), CHILD_SECONDS);
            InProcess client = InProcess.run("write-bw", "--addr", "127.0.1.2", "-d", "jrxe-pt-neg", "-p", "19433",
                    "--announce-version", "6.29", "-n", "100", "127.0.1.1");
            assertThat(client.status()).isEqualTo(2);
            assertThat(client.err()).contains("iters mismatch: local=100, remote=200");
            assertThat(server.waitFor(CHILD_SECONDS)).isEqualTo(2);
            assertThat(server.stderr()).contains("iters mismatch: local=200, remote=100");
        }
    }
}
