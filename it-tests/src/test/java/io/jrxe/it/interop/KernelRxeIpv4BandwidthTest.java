package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * perftest's bandwidth tests against jrxe's over the IPv4 GIDs (::ffff:10.77.0.x, rxe0's GID
 * index for its IPv4 address), each side as the server and as the client. jrxe sends through its
 * raw IPv4 path (it runs as root here), with an IP identification it chose and the ICRC computed
 * over it; rxe0 drops every packet whose ICRC is wrong, so a run that completes proves the ICRCs.
 * The atomics here are CMP_AND_SWAPs (the IPv6 runs do FETCH_AND_ADDs).
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KernelRxeIpv4BandwidthTest {
    private static final List<String> TESTS = List.of("write", "read", "send", "atomic");

    static Stream<Arguments> bandwidthTests() {
        return TESTS.stream().flatMap(test -> Stream.of(Server.values()).map(server -> Arguments.of(test, server)));
    }

    @ParameterizedTest(name = "ib_{0}_bw over IPv4, {1} serves")
    @MethodSource("bandwidthTests")
    void bandwidthOverIpv4(String test, Server server, Lab lab) throws Exception {
        int port = 18650 + 2 * TESTS.indexOf(test) + server.ordinal();
        if (test.equals("atomic")) {
            Pairings.bandwidth(lab, test, server, port, Gids.IPV4, 100, "-A CMP_AND_SWAP", "-A", "CMP_AND_SWAP");
        } else {
            Pairings.bandwidth(lab, test, server, port, Gids.IPV4, 100, "");
        }
    }
}
