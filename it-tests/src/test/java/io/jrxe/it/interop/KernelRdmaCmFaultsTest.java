package io.jrxe.it.interop;

import io.jrxe.it.interop.CmPairings.Family;
import io.jrxe.it.interop.CmPairings.Run;
import io.jrxe.it.interop.Pairings.Server;
import io.jrxe.wire.testing.ExternalTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connection managers of jrxe and kernel rxe when things go wrong: a connect to a port nobody listens on, each
 * way; a guest that loses a tenth of what it sends; an address nobody has; and the bridge's view of every CM
 * message (its ICRC valid, whoever sent it).
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KernelRdmaCmFaultsTest {
    private static final String REFUSED = "cma event RDMA_CM_EVENT_REJECTED, error 8";

    static java.util.stream.Stream<org.junit.jupiter.api.Named<Family>> families() {
        return Family.both();
    }

    /**
     * Nobody listens on the port: the peer's CM answers the REQ with a REJ, reason 8 (invalid service ID), and
     * either rping says so in the one line the real one prints and exits 255: jrxe's REQ refused by the guest's
     * kernel, then the kernel's REQ refused by jrxe's CM (whose NIC serves rping on another port).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void aConnectToAPortNobodyListensOnIsRejectedWithReason8EachWay(Family f, Lab lab) throws Exception {
        int base = f == Family.IPV4 ? 17400 : 17410;
        Job.Result jrxe = lab.jrxe("jrxe rping to nobody", "rping", "-c", "-a", f.guest(), "-I", f.jrxe(), "-p",
                String.valueOf(base), "-C", "1").await(CmPairings.RUN_LIMIT);
        assertThat(jrxe.exitCode()).as("%s", jrxe).isEqualTo(255);
        assertThat(CmPairings.lines(jrxe)).as("%s", jrxe).containsExactly(REFUSED);

        try (Job server = lab.jrxe("jrxe rping server", "rping", "-s", "-d", "-a", f.jrxe(), "-p", String.valueOf(base + 1))) {
            server.awaitOutput("rdma_listen", Duration.ofSeconds(90));
            Job.Result kernel = lab.guestNow("rping -c -a " + f.jrxe() + " -p " + (base + 2) + " -C 1; echo \"exit=$?\"", 60);
            assertThat(kernel.output()).as("%s", kernel).contains(REFUSED, "exit=255");
            assertThat(server.isAlive()).as("jrxe's server still waits for its client: %s", server.output()).isTrue();
        }
    }

    /**
     * netem drops a tenth of what the guest sends: its CM messages (the REP, the DREP) and its RC packets. The
     * CMs send a message again when its answer does not come, RC retransmits, and rping's 20 validated pings go
     * through, jrxe connecting to the guest's rping. The client's last line is left out of the check: it waits a
     * bounded time for the answer to its DREQ, which the guest may have lost.
     */
    @Test
    void rpingSurvivesAGuestThatLosesATenthOfItsPackets(Lab lab) throws Exception {
        try (GuestLoss loss = GuestLoss.of(lab, 10)) {
            Run r = CmPairings.run(lab, Server.KERNEL, Family.IPV4, "rping", null, 17420, List.of("-s", "-v", "-p", "17420"),
                    List.of("-c", "-v", "-V", "-C", "20", "-p", "17420"), "-a", "-a");
            assertThat(r.client().exitCode()).as("jrxe, the client: %s", r.client()).isZero();
            assertThat(r.client().output()).contains("ping data: rdma-ping-19: ");
            assertThat(r.server().exitCode()).as("the guest's rping: %s", r.server()).isZero();
            loss.assertDropped();
        }
    }

    /**
     * An address on the bridge that nobody has: jrxe's REQ goes unanswered, is sent again max CM retries (15)
     * times after each CM response timeout (4.096 us x 2^20, 4.3 s) and the packet life times, as Linux's CM
     * does, and rping then ends with the one line the real one prints for it: bounded, not hung.
     */
    @Test
    void aConnectToAnAddressNobodyHasFailsInBoundedTimeWithOneLine(Lab lab) throws Exception {
        long start = System.nanoTime();
        Job.Result r = lab.jrxe("jrxe rping to 10.77.0.9", "rping", "-c", "-a", "10.77.0.9", "-C", "1")
                .await(Duration.ofSeconds(150));
        System.out.printf("interop: rping to an address nobody has ended after %.0f s%n", (System.nanoTime() - start) / 1e9);
        assertThat(r.exitCode()).as("%s", r).isEqualTo(255);
        assertThat(CmPairings.lines(r)).as("%s", r).containsExactly("cma event RDMA_CM_EVENT_UNREACHABLE, error -110");
    }

    /**
     * tcpdump on the lab's bridge while rping runs each way, over each family, and two refused connects: every CM
     * MAD on the wire (QP1 to QP1), from either side, has a valid ICRC as `jrxe decode --verify-icrc` computes it,
     * and each kind of message was seen from each side.
     */
    @Test
    void everyCmPacketOnTheBridgeHasAValidIcrc(Lab lab, @TempDir Path dir) throws Exception {
        ExternalTool.assumeInstalled(Path.of("/usr/bin/tcpdump"), "tcpdump");
        Path capture = dir.resolve("cm-bridge.pcap");
        Files.createFile(capture);
        // immediate mode: libpcap otherwise holds packets in a ring block for up to a second, and a stop that
        // follows the last exchange closely (the REJ) loses them without counting them as dropped
        try (Job tcpdump = Lab.inNamespace("tcpdump", "tcpdump", "-i", "jrxe-br0", "--immediate-mode", "-U", "-n", "-w", capture.toString(), "udp port 4791")) {
            tcpdump.awaitOutput("listening on", Duration.ofSeconds(30));
            for (Family f : List.of(Family.IPV4, Family.IPV6)) {
                for (Server s : Server.values()) {
                    int port = 17430 + 2 * s.ordinal() + (f == Family.IPV6 ? 1 : 0);
                    Run r = CmPairings.run(lab, s, f, "rping", "rdma_listen", port,
                            s == Server.JRXE ? List.of("-s", "-d", "-p", "" + port) : List.of("-s", "-p", "" + port),
                            List.of("-c", "-C", "2", "-p", "" + port), "-a", "-a");
                    assertThat(r.client().exitCode()).as("%s", r.client()).isZero();
                    assertThat(r.server().exitCode()).as("%s", r.server()).isZero();
                }
            }
            Job.Result refused = lab.jrxe("jrxe rping refused", "rping", "-c", "-a", Lab.GUEST4, "-p", "17439", "-C", "1")
                    .await(CmPairings.RUN_LIMIT);
            assertThat(refused.output()).contains(REFUSED);
            Job.Result stopped = tcpdump.stop(Duration.ofSeconds(30));
            assertThat(stopped.output()).as("%s", stopped).containsPattern("\\d+ packets captured").contains("0 packets dropped by kernel");
        }
        Job.Result decoded = Lab.jrxeHere("decode", "--verify-icrc", "--json", capture.toString());
        assertThat(decoded.exitCode()).as("every ICRC valid by jrxe decode: %s", decoded).isZero();
        List<String> cm = decoded.output().lines().filter(l -> l.contains("\"dest_qpn\":1,") && l.contains("\"cm\":")).toList();
        assertThat(cm).as("CM MADs on the bridge").allMatch(l -> l.contains("\"icrc_ok\":true"));
        for (String source : List.of(Lab.HOST4, Lab.GUEST4, Lab.HOST6, Lab.GUEST6)) {
            List<String> from = cm.stream().filter(l -> l.contains("\"src\":\"" + source + "\"")).toList();
            for (String message : List.of("REQ", "REP", "RTU", "DREQ", "DREP")) {
                assertThat(from).as("%s from %s", message, source).anyMatch(l -> l.contains("\"message\":\"" + message + "\""));
            }
        }
        assertThat(cm).as("the guest's REJ of jrxe's REQ")
                .anyMatch(l -> l.contains("\"src\":\"" + Lab.GUEST4 + "\"") && l.contains("\"message\":\"REJ\""));
    }
}
