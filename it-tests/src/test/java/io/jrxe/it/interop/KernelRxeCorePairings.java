package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.jrxe.it.interop.Pairings.assertPingpong;
import static io.jrxe.it.interop.Pairings.pair;

/**
 * The core pairings, run against every lab release (a subclass per release): RC pingpong over
 * both GID families and UD pingpong with ibv_rc_pingpong and ibv_ud_pingpong, and perftest's
 * ib_write_bw and ib_send_bw against jrxe's write-bw and send-bw, each both ways: jrxe as the
 * server and as the client. RoCE runs between the IPv6 GIDs fd77::1 (jrxe) and fd77::2 (rxe0)
 * unless a test says otherwise; the out-of-band TCP exchange runs over IPv4, because the real
 * servers listen on the first address getaddrinfo gives (0.0.0.0). Every pairing checks both
 * programs' exit status, their result lines and the peer each saw.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
abstract class KernelRxeCorePairings {
    /** The four perftest bandwidth tests, in the order that numbers their TCP ports. */
    static final List<String> BANDWIDTH_TESTS = List.of("write", "read", "send", "atomic");
    /** Messages in flight in the bandwidth pairings (perftest's -t). */
    private static final int TX_DEPTH = 16;

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

    static Stream<Arguments> writeAndSend() {
        return bandwidthPairings("write", "send");
    }

    /**
     * perftest's WRITE and SEND bandwidth tests with 64 KiB messages, 16 in flight: under TCG on a
     * busy host the guest drops packets of long bursts, and RC's go-back-N sends the whole window
     * again at the cost of one of seven retries; perftest's default window (128 messages, 8 MiB)
     * ran out of retries on both releases, 16 keeps retries rare.
     */
    @ParameterizedTest(name = "ib_{0}_bw, {1} serves")
    @MethodSource("writeAndSend")
    void bandwidth(String test, Server server, Lab lab) throws Exception {
        Pairings.bandwidth(lab, test, server, bandwidthPort(test, server), Gids.IPV6, 200, "-t " + TX_DEPTH, "-t", String.valueOf(TX_DEPTH));
    }

    static Stream<Arguments> bandwidthPairings(String... tests) {
        return Stream.of(tests).flatMap(test -> Stream.of(Server.values()).map(server -> Arguments.of(test, server)));
    }

    static int bandwidthPort(String test, Server server) {
        return 18610 + 2 * BANDWIDTH_TESTS.indexOf(test) + server.ordinal();
    }
}
