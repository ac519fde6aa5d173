package io.jrxe.tools.perftest;

import io.jrxe.tools.perftest.PerftestPair.Run;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jrxe.tools.perftest.PerftestPair.bwRowsPositive;
import static io.jrxe.tools.perftest.PerftestPair.latRowsPositive;
import static io.jrxe.tools.perftest.PerftestPair.rows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * perftest commands with --odp, jrxe against jrxe across two JVMs on 127.0.72.3 and .4: the tables as without it,
 * then each side's ODP line, whose faults are the pages the test's work requests reached, each once.
 */
class PerftestOdpProcessTest {
    private static final Pattern ODP = Pattern.compile("ODP on (\\S+): page_faults=(\\d+) prefetched_pages=(\\d+) rnr_naks=(\\d+)");

    private static Run run(String command, int port, String... extra) throws Exception {
        List<String> options = new java.util.ArrayList<>(List.of("--odp", "--warmup", "0"));
        options.addAll(List.of(extra));
        Run r = PerftestPair.runEachAt("127.0.72.3", "127.0.72.4", command, port, options, options);
        assertThat(r.clientErr()).isEmpty();
        return r;
    }

    /** The side's lines without its last, the ODP line, whose page faults it returns. */
    private static long faults(List<String> lines, List<String> table) {
        long[] odp = odp(lines, table);
        assertThat(odp[1]).as("prefetched pages").isZero();
        assertThat(odp[2]).as("RNR NAKs: the default policy resolves in line").isZero();
        return odp[0];
    }

    /** The side's lines without its last into {@code table}; the last, the ODP line's faults, prefetched pages, RNR NAKs. */
    private static long[] odp(List<String> lines, List<String> table) {
        Matcher m = ODP.matcher(lines.getLast());
        assertThat(m.matches()).as("the last line of %s", lines).isTrue();
        table.addAll(lines.subList(0, lines.size() - 1));
        return new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4))};
    }

    @Test
    void writeBandwidthFaultsTheWrittenPagesOnce() throws Exception {
        Run r = run("write-bw", 19721, "-n", "5", "-s", "8192");
        List<String> server = new java.util.ArrayList<>();
        List<String> client = new java.util.ArrayList<>();
        assertThat(faults(r.server(), server)).as("the server's two pages the WRITEs land in").isEqualTo(2);
        assertThat(faults(r.client(), client)).as("the client's two pages the WRITEs are read from").isEqualTo(2);
        bwRowsPositive(rows(client, "RDMA_Write BW Test", true, "WRITE"), 8192, 5);
    }

    @Test
    void aServerThatRnrNaksItsFaultsStillFaultsEachPageOnce() throws Exception {
        Run r = run("write-bw", 19723, "-n", "5", "-s", "8192", "--odp-faults", "rnr_nak");
        long[] server = odp(r.server(), new java.util.ArrayList<>());
        assertThat(server[0]).as("the two pages the WRITEs land in, each once").isEqualTo(2);
        assertThat(server[2]).as("the first WRITE to reach them was RNR-NAKed").isPositive();
        List<String> client = new java.util.ArrayList<>();
        assertThat(odp(r.client(), client)[2]).as("the client's faults are local: in line, never NAKed").isZero();
        bwRowsPositive(rows(client, "RDMA_Write BW Test", true, "WRITE"), 8192, 5);
    }

    @Test
    void sendLatencyFaultsEachSidesSendAndReceivePage() throws Exception {
        Run r = run("send-lat", 19722, "-n", "5");
        List<String> server = new java.util.ArrayList<>();
        List<String> client = new java.util.ArrayList<>();
        assertThat(faults(r.server(), server)).as("one page sent from, one received into").isEqualTo(2);
        assertThat(faults(r.client(), client)).isEqualTo(2);
        latRowsPositive(rows(client, "Send Latency Test", false, "SEND"), 2, 5);
    }
}
