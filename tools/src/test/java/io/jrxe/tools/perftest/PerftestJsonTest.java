package io.jrxe.tools.perftest;

import io.jrxe.verbs.Mtu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The two JSON reports, byte for byte: --json's one line, and --out_json's file as perftest writes it. */
class PerftestJsonTest {
    private static PerftestSettings writeBwClient() {
        PerftestSettings s = new PerftestSettings();
        s.verb = Verb.WRITE;
        s.bw = true;
        s.client = true;
        s.qps = 1;
        s.txDepth = 128;
        s.rxDepth = 512;
        s.cqMod = 1;
        s.mtu = Mtu.MTU_1024;
        s.gidIndex = 1;
        s.deviceName = "jrxe0";
        return s;
    }

    /** A send latency server with events, a post list, an SRQ and the connection manager: the settings that add keys. */
    private static PerftestSettings sendLatServer() {
        PerftestSettings s = new PerftestSettings();
        s.verb = Verb.SEND;
        s.qps = 2;
        s.txDepth = 1;
        s.rxDepth = 100;
        s.mtu = Mtu.MTU_4096;
        s.gidIndex = 3;
        s.inline = 220;
        s.deviceName = "rxe0";
        s.events = true;
        s.postList = 2;
        s.useSrq = true;
        s.rdmaCm = true;
        s.rdmaCmExchange = true;
        s.durationSeconds = 5;
        return s;
    }

    @Test
    void jsonReportOfABandwidthClient() {
        JsonReport r = new JsonReport(writeBwClient(), "write-bw");
        r.remoteVersion("6.10");
        r.local(new PerftestDest(0, 1, 22, 8455743, 476, 140398863384576L, PerftestFormatTest.GID, 0));
        r.remote(new PerftestDest(0, 1, 23, 5837969, 0xFFFF_FFFE, 139733680611328L, null, 0));
        r.bw(new BwReport(65536, 200, 27.963312, 27.8242851, 0.000445));
        r.bw(new BwReport(131072, 200, 1e6 / 3, 0, 0));
        assertThat(r.render()).isEqualTo("{\"test_info\": {\"command\": \"jrxe write-bw\", \"test\": \"RDMA_Write_BW_Test\", "
                + "\"side\": \"client\", \"Device\": \"jrxe0\", \"Number_of_qps\": 1, \"Connection_type\": \"RC\", \"Using_SRQ\": \"OFF\", "
                + "\"TX_depth\": 128, \"CQ_Moderation\": 1, \"Mtu\": 1024, \"Link_type\": \"Ethernet\", \"GID_index\": 1, "
                + "\"Max_inline_data\": 0, \"rdma_cm_QPs\": \"OFF\", \"Duration\": 0, \"remote_version\": \"6.10\", "
                + "\"local\": [{\"lid\": 0, \"qpn\": 22, \"psn\": 8455743, \"rkey\": 476, \"vaddr\": 140398863384576, \"out_reads\": 1, "
                + "\"gid\": \"::ffff:127.0.1.2\"}], \"remote\": [{\"lid\": 0, \"qpn\": 23, \"psn\": 5837969, \"rkey\": 4294967294, "
                + "\"vaddr\": 139733680611328, \"out_reads\": 1}]}, \"results\": [{\"MsgSize\": 65536, \"n_iterations\": 200, "
                + "\"BW_peak\": 27.963312, \"BW_average\": 27.824285, \"MsgRate\": 0.000445, \"unit\": \"MiB/sec\"}, "
                + "{\"MsgSize\": 131072, \"n_iterations\": 200, \"BW_peak\": 333333.333333, \"BW_average\": 0.000000, "
                + "\"MsgRate\": 0.000000, \"unit\": \"MiB/sec\"}]}");
    }

    @Test
    void jsonReportOfALatencyServer() {
        JsonReport r = new JsonReport(sendLatServer(), "send-lat");
        r.lat(new LatencyStats(2, 1000, 1.5, 2134.5634, 164.2064, 206.5275, 179.2614, 2000, 2134.5636, new double[0]));
        r.latDuration(8, 7351, 136.0144, 3676.1016);
        assertThat(r.render()).isEqualTo("{\"test_info\": {\"command\": \"jrxe send-lat\", \"test\": \"Send_Latency_Test\", "
                + "\"side\": \"server\", \"Device\": \"rxe0\", \"Number_of_qps\": 2, \"Connection_type\": \"RC\", \"Using_SRQ\": \"ON\", "
                + "\"Post_List\": 2, \"TX_depth\": 1, \"RX_depth\": 100, \"Mtu\": 4096, \"Link_type\": \"Ethernet\", \"GID_index\": 3, "
                + "\"Max_inline_data\": 220, \"rdma_cm_QPs\": \"ON\", \"Duration\": 5, \"remote_version\": \"\", \"local\": [], "
                + "\"remote\": []}, \"results\": [{\"MsgSize\": 2, \"n_iterations\": 1000, \"t_min\": 1.500, \"t_max\": 2134.563, "
                + "\"t_typical\": 164.206, \"t_avg\": 206.528, \"t_stdev\": 179.261, \"99_percentile\": 2000.000, "
                + "\"99.9_percentile\": 2134.564}, {\"MsgSize\": 8, \"n_iterations\": 7351, \"t_avg\": 136.014, "
                + "\"tps_average\": 3676.102}]}");
    }

    @Test
    void outJsonFileOfABandwidthClient(@TempDir Path dir) throws Exception {
        PerftestSettings s = writeBwClient();
        s.outJsonFile = dir.resolve("out.json").toString();
        PerftestJsonFile f = PerftestJsonFile.open(s);
        assertThat(Files.readString(Path.of(s.outJsonFile))).as("emptied when opened").isEmpty();
        f.bw(new BwReport(65536, 200, 27.963312, 27.8242851, 0.000445));
        assertThat(Files.readString(Path.of(s.outJsonFile), StandardCharsets.US_ASCII)).isEqualTo("""
                {
                "test_info": {
                "test": "RDMA_Write_BW_Test",
                "Dual_port": "OFF",
                "Device": "jrxe0",
                "Number_of_qps": 1,
                "Transport_type": "IB",
                "Connection_type": "RC",
                "Using_SRQ": "OFF",
                "PCIe_relax_order": "OFF",
                "ibv_wr_API": "OFF",
                "TX_depth": 128,
                "CQ_Moderation": 1,
                "Mtu": 1024,
                "Link_type": "Ethernet",
                "GID_index": 1,
                "Max_inline_data": 0,
                "rdma_cm_QPs": "OFF",
                "Use_ROCm_memory": "OFF",
                "Data_ex_method": "Ethernet"
                },
                "results": {
                "MsgSize": 65536,
                "n_iterations": 200,
                "BW_peak": 27.96,
                "BW_average": 27.82,
                "MsgRate": 0.000445
                }
                }
                """);
        s.gbits = true;
        PerftestJsonFile.open(s).bw(new BwReport(2, 10, 0.0912345, 0.0512345, 3.5));
        assertThat(Files.readString(Path.of(s.outJsonFile))).as("a small Gb/s bandwidth keeps six digits")
                .endsWith("\"results\": {\n\"MsgSize\": 2,\n\"n_iterations\": 10,\n\"BW_peak\": 0.091235,\n"
                        + "\"BW_average\": 0.051235,\n\"MsgRate\": 3.500000\n}\n}\n");
    }

    @Test
    void outJsonFileOfALatencyServer(@TempDir Path dir) throws Exception {
        PerftestSettings s = sendLatServer();
        s.outJsonFile = dir.resolve("out.json").toString();
        PerftestJsonFile f = PerftestJsonFile.open(s);
        f.lat(new LatencyStats(2, 1000, 1.5, 2134.5634, 164.2064, 206.5275, 179.2614, 2000, 2134.5636, new double[0]));
        assertThat(Files.readString(Path.of(s.outJsonFile))).isEqualTo("""
                {
                "test_info": {
                "test": "Send_Latency_Test",
                "Test with events": "Using_rxe0_comp0",
                "Dual_port": "OFF",
                "Device": "rxe0",
                "Number_of_qps": 2,
                "Transport_type": "IB",
                "Connection_type": "RC",
                "Using_SRQ": "ON",
                "PCIe_relax_order": "OFF",
                "ibv_wr_API": "OFF",
                "Post_List": 2,
                "RX_depth": 100,
                "Mtu": 4096,
                "Link_type": "Ethernet",
                "GID_index": 3,
                "Max_inline_data": 220,
                "rdma_cm_QPs": "ON",
                "Use_ROCm_memory": "OFF",
                "Data_ex_method": "rdma_cm"
                },
                "results": {
                "MsgSize": 2,
                "n_iterations": 1000,
                "t_min": 1.50,
                "t_max": 2134.56,
                "t_typical": 164.21,
                "t_avg": 206.53,
                "t_stdev": 179.26,
                "percentile_99": 2000.00,
                "percentile_99.9": 2134.56
                }
                }
                """);
        f.latDuration(8, 7351, 136.0144, 3676.1016);
        assertThat(Files.readString(Path.of(s.outJsonFile))).as("rewritten at every row")
                .endsWith("\"results\": {\n\"MsgSize\": 8,\n\"n_iterations\": 7351,\n\"t_avg\": 136.01,\n\"tps_average\": 3676.10\n}\n}\n");
    }
}
