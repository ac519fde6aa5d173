package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.jrxe.it.interop.Pairings.assertPingpong;
import static io.jrxe.it.interop.Pairings.jrxeServes;
import static io.jrxe.it.interop.Pairings.pair;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * jrxe against the kernel's Soft-RoCE (rdma_rxe in the lab's guest) with the real rdma-core and
 * perftest programs, each pairing both ways: jrxe as the server and as the client. RoCE runs
 * between the IPv6 GIDs fd77::1 (jrxe) and fd77::2 (rxe0); the out-of-band TCP exchange runs
 * over IPv4, because the real servers listen on the first address getaddrinfo gives (0.0.0.0).
 * Every pairing checks both programs' exit status, their result lines and the peer each saw.
 * perftest: ib_write_bw, ib_read_bw, ib_send_bw and ib_atomic_bw against jrxe's write-bw, read-bw,
 * send-bw and atomic-bw.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KernelRxeInteropTest {
    static Stream<Arguments> rcPingpongs() {
        return Gids.both().flatMap(gids -> Stream.of(Server.values()).map(server -> Arguments.of(server, gids)));
    }

    /**
     * RC pingpong over the IPv6 GIDs and over the IPv4 ones (::ffff:10.77.0.x), where jrxe sends
     * through its raw socket with an IP identification it chose and the ICRC computed over it, and
     * solves for rxe's on receipt.
     */
    @ParameterizedTest(name = "{0} serves, {1}")
    @MethodSource("rcPingpongs")
    void rcPingpong(Server server, Gids gids, Lab lab) throws Exception {
        int port = (gids == Gids.IPV6 ? 18601 : 18630) + server.ordinal();
        Pair p = pair(lab, server, port, "ibv_rc_pingpong -d rxe0 -g " + gids.guestIndex(lab) + " -n 50 -c",
                "pingpong", "--addr", gids.jrxeAddr(), "-n", "50", "-c");
        assertPingpong(p, 50, gids);
    }

    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void udPingpong(Server server, Lab lab) throws Exception {
        Pair p = pair(lab, server, 18603 + server.ordinal(), "ibv_ud_pingpong -d rxe0 -g " + lab.guestGid6() + " -s 1024 -n 50 -c",
                "ud-pingpong", "--addr", Lab.HOST6, "-s", "1024", "-n", "50", "-c");
        assertPingpong(p, 50, Gids.IPV6);
    }

    /** perftest's bandwidth tests: WRITE, READ and SEND of 64 KiB messages, 8-byte FETCH_AND_ADDs. */
    static Stream<Arguments> bandwidthTests() {
        return Stream.of("write", "read", "send", "atomic")
                .flatMap(test -> Stream.of(Server.values()).map(server -> Arguments.of(test, server)));
    }

    @ParameterizedTest(name = "ib_{0}_bw, {1} serves")
    @MethodSource("bandwidthTests")
    void bandwidth(String test, Server server, Lab lab) throws Exception {
        int port = 18610 + 2 * List.of("write", "read", "send", "atomic").indexOf(test) + server.ordinal();
        Pairings.bandwidth(lab, test, server, port, Gids.IPV6, 200, "");
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
        Job.Result smoke = lab.guestNow("test -x /opt/jdk/bin/java && cd /opt/jrxe && /opt/jdk/bin/java " + Lab.GUEST_JIT
                + " --enable-native-access=ALL-UNNAMED"
                + " -cp 'it-tests/target/test-classes:tools/target/jrxe-tools.jar:tools/target/lib/*' "
                + NativeSmoke.class.getName() + " rxe0", 360);
        assertThat(smoke.exitCode()).as("%s", smoke).isZero();
        assertThat(smoke.output()).as("%s", smoke).containsPattern("steps: \\d+ ok, 0 failed").doesNotContain("FAIL");
        assertThat(smoke.output().lines().filter(l -> l.startsWith("OK")).count()).as("%s", smoke).isGreaterThanOrEqualTo(30);
    }
}
