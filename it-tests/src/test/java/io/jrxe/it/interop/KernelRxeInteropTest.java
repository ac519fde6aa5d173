package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.jrxe.it.interop.Pairings.assertPingpong;
import static io.jrxe.it.interop.Pairings.jrxeServes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * jrxe against the kernel's Soft-RoCE of the default lab release (bookworm's rdma_rxe, kernel
 * 6.1, unless -Djrxe.lab.release names another): the core pairings of
 * {@link KernelRxeCorePairings}, and here too ib_read_bw and ib_atomic_bw against jrxe's read-bw
 * and atomic-bw (both ways), UD over IPv4 with every ICRC checked, and the native provider
 * driving rxe0 from the guest.
 */
class KernelRxeInteropTest extends KernelRxeCorePairings {
    static Stream<Arguments> readAndAtomic() {
        return bandwidthPairings("read", "atomic");
    }

    /** perftest's READ bandwidth test with 64 KiB messages, and its atomic one with 8-byte FETCH_AND_ADDs. */
    @ParameterizedTest(name = "ib_{0}_bw, {1} serves")
    @MethodSource("readAndAtomic")
    void readAndAtomicBandwidth(String test, Server server, Lab lab) throws Exception {
        Pairings.bandwidth(lab, test, server, bandwidthPort(test, server), Gids.IPV6, 200, "");
    }

    /**
     * A jrxe NIC with ECN and DCQCN on pairs with rxe0 as any other does: rxe0 sends Not-ECT packets and never a CNP, so
     * jrxe's rate is never cut and perftest's WRITE bandwidth test completes as it does with {@code none}
     * (docs/differences.md, "ECN and CNPs").
     */
    @Test
    void dcqcnAgainstRxeNeverSlows(Lab lab) throws Exception {
        Pair p = Pairings.bandwidth(lab, "write", Server.KERNEL, 18675, Gids.IPV6, 200, "-t 16",
                "-t", "16", "--ecn", "--cc", "dcqcn", "--counters");
        String counters = p.jrxe().output().lines().filter(l -> l.startsWith("counters of ")).findFirst().orElse("none printed");
        assertThat(counters).as("jrxe's counters: %s", p.jrxe()).contains(" rcvd_pkts=")
                .doesNotContain("jrxe_rcvd_cnp=").doesNotContain("jrxe_cc_rate_decreased=");
    }

    /**
     * UD over IPv4 with jrxe's capture checked: every packet in it, the ones rxe sent (with the
     * identification jrxe solved for) and the ones jrxe sent (with the one it chose), has a
     * valid ICRC, and rxe0 completed the exchange, so it accepted jrxe's.
     */
    @Test
    void udPingpongOverIpv4WithEveryIcrcValid(Lab lab, @TempDir Path dir) throws Exception {
        int port = 18607;
        Path capture = dir.resolve("ipv4.pcapng");
        Pair p = jrxeServes(lab, port, "ibv_ud_pingpong -d rxe0 -g " + lab.guestGid4() + " -s 1024 -n 20 -c",
                "ud-pingpong", "--addr", Lab.HOST4, "-s", "1024", "-n", "20", "-c", "--capture", capture.toString());
        assertPingpong(p, 20, Gids.IPV4);
        Job.Result decoded = Lab.jrxeHere("decode", "--verify-icrc", "--json", capture.toString());
        assertThat(decoded.exitCode()).as("every ICRC in jrxe's capture is valid: %s", decoded).isZero();
        for (String source : List.of(Lab.GUEST4, Lab.HOST4)) {
            assertThat(decoded.output().lines()
                    .filter(l -> l.contains("\"src\":\"" + source + "\"") && l.contains("\"opcode_name\":\"UD SEND_ONLY\"")))
                    .as("UD SENDs from %s in jrxe's capture: %s", source, decoded.output()).hasSizeGreaterThanOrEqualTo(20)
                    .allMatch(l -> l.contains("\"icrc_ok\":true"));
        }
    }

    /**
     * The native provider (libibverbs through java.lang.foreign) driving the guest's rxe0: its
     * smoke run, in the guest with the host's JDK, passes every step (a verb the kernel's driver
     * refuses with EOPNOTSUPP, as Debian's 6.1 rdma_rxe does ibv_rereg_mr, is a passed step that
     * says so).
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void nativeProviderDrivesTheGuestsRxe0(Lab lab) throws Exception {
        Job.Result smoke = lab.guestNow("test -x /opt/jdk/bin/java && cd /opt/jrxe && " + Lab.guestTestMain(NativeSmoke.class)
                + " rxe0", 360);
        assertThat(smoke.exitCode()).as("%s", smoke).isZero();
        assertThat(smoke.output()).as("%s", smoke).containsPattern("steps: \\d+ ok, 0 failed").doesNotContain("FAIL");
        assertThat(smoke.output().lines().filter(l -> l.startsWith("OK")).count()).as("%s", smoke).isGreaterThanOrEqualTo(30);
    }
}
