package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.jrxe.it.interop.Pairings.assertBothSucceeded;
import static io.jrxe.it.interop.Pairings.assertSawEachOthersGid;
import static io.jrxe.it.interop.Pairings.pair;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * perftest's latency tests against jrxe's over the IPv6 and the IPv4 GIDs (jrxe's raw-socket transmit
 * path), each side as the server and as the client: ib_write_lat with jrxe write-lat (each side polls its memory for the other's RDMA WRITE)
 * and ib_send_lat with jrxe send-lat (SEND ping-pong), 2-byte messages.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KernelRxeLatencyTest {
    private static final int ITERATIONS = 100;
    /** #bytes, #iterations, then t_min, t_max, t_typical, t_avg, t_stdev and the two percentiles. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\s*2\\s+" + ITERATIONS + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)"
            + "\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+\\s*$");

    static Stream<Arguments> latencyTests() {
        return Gids.both().flatMap(gids -> Stream.of("write", "send")
                .flatMap(test -> Stream.of(Server.values()).map(server -> Arguments.of(test, server, gids))));
    }

    @ParameterizedTest(name = "ib_{0}_lat, {1} serves, {2}")
    @MethodSource("latencyTests")
    void latency(String test, Server server, Gids gids, Lab lab) throws Exception {
        int port = 18640 + (gids == Gids.IPV6 ? 0 : 4) + 2 * List.of("write", "send").indexOf(test) + server.ordinal();
        // Both sides' ACK timeout as in the bandwidth pairings (Pairings.JRXE_ACK_TIMEOUT says why): a guest stalled
        // past eight 67 ms timeouts in a row ended a jrxe send-lat client with RETRY_EXC_ERR after 20 of 100 messages.
        Pair p = pair(lab, server, port, "ib_" + test + "_lat -d rxe0 -x " + gids.guestIndex(lab) + " -F -n " + ITERATIONS
                        + " " + Pairings.GUEST_ACK_TIMEOUT,
                test + "-lat", "--addr", gids.jrxeAddr(), "-F", "-n", String.valueOf(ITERATIONS), "-u", Pairings.JRXE_ACK_TIMEOUT);
        assertBothSucceeded(p);
        // Only jrxe's numbers are checked: the guest's perftest times with a TSC that TCG may make
        // useless (it has printed -nan for t_stdev), so of its row only the size and count are.
        assertThat(p.kernel().output()).as("%s", p.kernel()).containsPattern("(?m)^\\s*2\\s+" + ITERATIONS + "\\s+\\S+");
        Matcher m = ROW.matcher(p.jrxe().output());
        assertThat(m.find()).as("a latency row for 2 bytes x %d in %s", ITERATIONS, p.jrxe()).isTrue();
        double min = Double.parseDouble(m.group(1));
        double max = Double.parseDouble(m.group(2));
        double typical = Double.parseDouble(m.group(3));
        assertThat(min).as("jrxe's t_min in %s", p.jrxe()).isPositive().isLessThanOrEqualTo(typical);
        assertThat(typical).as("jrxe's t_typical in %s", p.jrxe()).isLessThanOrEqualTo(max);
        assertSawEachOthersGid(p, gids);
    }
}
