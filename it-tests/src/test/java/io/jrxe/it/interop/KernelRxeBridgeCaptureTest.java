package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import io.jrxe.wire.testing.ExternalTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.jrxe.it.interop.Pairings.assertPingpong;
import static io.jrxe.it.interop.Pairings.pair;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wire between jrxe and rxe0 as a third party sees it: tcpdump on the lab's bridge records an
 * RC pingpong and an ib_write_bw run over the IPv4 GIDs and over the IPv6 GIDs, and then every
 * RoCE packet in the capture, both directions, has a valid ICRC, checked by `jrxe decode
 * --verify-icrc` and, for IPv4, independently by scapy's RoCE layer (wire's scapy_icrc.py). scapy
 * computes no ICRC over IPv6: there jrxe decode is the only check, besides rxe0 completing the
 * runs, which it does only when it accepted jrxe's packets.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KernelRxeBridgeCaptureTest {
    private static final Path TCPDUMP = Path.of("/usr/bin/tcpdump");

    @Test
    void everyPacketOnTheBridgeHasAValidIcrc(Lab lab, @TempDir Path dir) throws Exception {
        ExternalTool.assumeInstalled(TCPDUMP, "tcpdump");
        Path script = ExternalTool.scapyIcrcScript(dir);
        Path capture = dir.resolve("bridge.pcap");
        Files.createFile(capture);
        // Not in immediate mode, which wakes tcpdump for every packet and dropped some of a write-bw burst even
        // with a large buffer: the last packets may wait in libpcap's ring block and be lost at the stop, which
        // this test, unlike the CM one, does not need. A 32 MiB buffer (-B, KiB) for the bursts of a busy host.
        try (Job tcpdump = lab.inNamespace("tcpdump", "tcpdump", "-i", "jrxe-br0", "-B", "32768", "-U", "-n", "-w",
                capture.toString(), "udp port 4791")) {
            tcpdump.awaitOutput("listening on", Duration.ofSeconds(30));
            run(lab);
            Job.Result stopped = tcpdump.stop(Duration.ofSeconds(30));
            assertThat(stopped.output()).as("%s", stopped).containsPattern("\\d+ packets captured").contains("0 packets dropped by kernel");
        }
        Job.Result decoded = Lab.jrxeHere("decode", "--verify-icrc", "--json", capture.toString());
        assertThat(decoded.exitCode()).as("every ICRC valid by jrxe decode: %s", decoded).isZero();
        assertThat(decoded.output()).containsPattern("icrc_bad=0 other=0");
        for (String source : List.of(Lab.HOST4, Lab.GUEST4, Lab.HOST6, Lab.GUEST6)) {
            assertThat(decoded.output().lines().filter(l -> l.contains("\"src\":\"" + source + "\"")))
                    .as("packets from %s on the bridge", source).hasSizeGreaterThanOrEqualTo(100)
                    .allMatch(l -> l.contains("\"kind\":\"roce\"") && l.contains("\"icrc_ok\":true"));
        }

        List<String> verdicts = ExternalTool.runOk(List.of(ExternalTool.DEBIAN_PYTHON.toString(), script.toString(), "pcap-by-source",
                capture.toString()), 120).lines().toList();
        assertThat(verdicts).as("scapy's verdicts").noneMatch(v -> v.startsWith("bad "));
        for (String source : List.of(Lab.HOST4, Lab.GUEST4)) {
            assertThat(verdicts).as("IPv4 packets from %s with the ICRC scapy computes", source)
                    .filteredOn(v -> v.startsWith("ok " + source + " ")).hasSizeGreaterThanOrEqualTo(100);
        }
        assertThat(verdicts).as("scapy saw the IPv6 packets too, without an ICRC of its own for them")
                .contains("ipv6 unchecked " + Lab.HOST6, "ipv6 unchecked " + Lab.GUEST6);
    }

    /** What the capture records: each GID family with jrxe serving one pairing and rxe0 the other. */
    private static void run(Lab lab) throws Exception {
        Pair p4 = pair(lab, Server.JRXE, 18690, "ibv_rc_pingpong -d rxe0 -g " + lab.guestGid4() + " -n 20 -c",
                "pingpong", "--addr", Lab.HOST4, "-n", "20", "-c");
        assertPingpong(p4, 20, Gids.IPV4);
        Pairings.bandwidth(lab, "write", Server.KERNEL, 18691, Gids.IPV4, 20, "");
        Pair p6 = pair(lab, Server.KERNEL, 18692, "ibv_rc_pingpong -d rxe0 -g " + lab.guestGid6() + " -n 20 -c",
                "pingpong", "--addr", Lab.HOST6, "-n", "20", "-c");
        assertPingpong(p6, 20, Gids.IPV6);
        Pairings.bandwidth(lab, "write", Server.JRXE, 18693, Gids.IPV6, 20, "");
    }
}
