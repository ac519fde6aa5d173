package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.jrxe.it.interop.Pairings.RUN_LIMIT;
import static io.jrxe.it.interop.Pairings.assertBandwidth;
import static io.jrxe.it.interop.Pairings.assertBothSucceeded;
import static io.jrxe.it.interop.Pairings.assertSawEachOthersGid;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * perftest's -R, jrxe's commands paired with the guest's perftest 4.5 both ways over IPv4 (perftest's rdma_cm is
 * AF_INET only): the exchange over a QP the connection manager connects on the port, then the test's QPs connected
 * by the CM on the same port, no TCP at all. A jrxe server is waited for by its banner (printed once its CM
 * identifier listens), the guest's by its listening CM identifier; jrxe's client tries again while the guest's
 * server is not yet listening for the test's QPs, perftest's client ten times. Sixteen in flight at most (-t 16), as in
 * {@link KernelRxePerftestModesTest}: under TCG the guest drops the packets of long bursts, and a hundred 8 KiB READs
 * at once on each of two QPs ended jrxe's READs in RETRY_EXC_ERR.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KernelRxePerftestRdmaCmTest {
    private static final int ITERATIONS = 100;
    private static final String QPS_ON = "rdma_cm QPs\t : ON";
    private static final String CM_EXCHANGE = "Data ex. method : rdma_cm";

    /** One pairing: the perftest program, the jrxe command, the options both sides get, and the size of its rows. */
    record Test(String program, String command, List<String> options, String size) {
        @Override
        public String toString() {
            return program + " -R " + String.join(" ", options);
        }
    }

    static final List<Test> TESTS = List.of(
            new Test("ib_write_bw", "write-bw", List.of("-s", "8192", "-t", "16"), "8192"),
            new Test("ib_send_bw", "send-bw", List.of("-s", "8192", "-t", "16"), "8192"),
            new Test("ib_read_bw", "read-bw", List.of("-s", "8192", "-q", "2", "-t", "16"), "8192"),
            new Test("ib_send_lat", "send-lat", List.of("-s", "64"), "64"));

    static Stream<Arguments> pairings() {
        return TESTS.stream().flatMap(t -> Stream.of(Server.values()).map(server -> Arguments.of(t, server)));
    }

    @ParameterizedTest(name = "{0}, {1} serves")
    @MethodSource("pairings")
    void pairsOverTheConnectionManager(Test t, Server server, Lab lab) throws Exception {
        pairAndCheck(lab, t, server, 18720 + 2 * TESTS.indexOf(t) + server.ordinal(), Family.IPV4);
    }

    /** IPv4 through perftest's AF_INET, or IPv6 where the guest's perftest has --ipv6-addr (25.01 on, not 4.5). */
    enum Family {
        IPV4(Lab.HOST4, Lab.GUEST4, Gids.IPV4, ""),
        IPV6(Lab.HOST6, Lab.GUEST6, Gids.IPV6, " --ipv6-addr");

        final String host;
        final String guest;
        final Gids gids;
        final String perftestOption;

        Family(String host, String guest, Gids gids, String perftestOption) {
            this.host = host;
            this.guest = guest;
            this.gids = gids;
            this.perftestOption = perftestOption;
        }

        int guestGid(Lab lab) {
            return this == IPV4 ? lab.guestGid4() : lab.guestGid6();
        }
    }

    static void pairAndCheck(Lab lab, Test t, Server server, int port, Family f) throws Exception {
        Pair p = pair(lab, server, port, t, f);
        assertThat(p.kernel().output()).as("perftest's header").contains(QPS_ON, CM_EXCHANGE);
        assertThat(p.jrxe().output()).as("jrxe's header").contains(QPS_ON, CM_EXCHANGE);
        boolean qps2 = t.options().contains("-q");
        if (t.command().endsWith("-bw")) {
            int rowIterations = qps2 ? 2 * ITERATIONS : ITERATIONS;
            assertBandwidth(p, t.size(), rowIterations, server == Server.KERNEL, f.gids);
        } else {
            assertBothSucceeded(p);
            Matcher m = Pattern.compile("(?m)^\\s*" + t.size() + "\\s+" + ITERATIONS + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)")
                    .matcher(p.jrxe().output());
            assertThat(m.find()).as("a latency row in %s", p.jrxe()).isTrue();
            assertThat(Double.parseDouble(m.group(1))).as("jrxe's t_min").isPositive();
            assertThat(p.kernel().output()).as("%s", p.kernel()).containsPattern("(?m)^\\s*" + t.size() + "\\s+" + ITERATIONS + "\\s+\\S+");
            assertSawEachOthersGid(p, f.gids);
        }
        if (qps2) {
            assertThat(p.jrxe().output().lines().filter(l -> l.startsWith(" local address:")).count()).as("%s", p.jrxe()).isEqualTo(2);
        }
    }

    private static Pair pair(Lab lab, Server server, int port, Test t, Family f) throws Exception {
        String guest = t.program() + " -d rxe0 -x " + f.guestGid(lab) + f.perftestOption + " -R -F -n " + ITERATIONS + " -p "
                + port + " " + Pairings.GUEST_ACK_TIMEOUT + " " + String.join(" ", t.options());
        List<String> jrxe = new ArrayList<>(List.of(t.command(), "--addr", f.host, "-R", "-F", "-n", String.valueOf(ITERATIONS),
                "-p", String.valueOf(port)));
        jrxe.addAll(t.options());
        if (server == Server.JRXE) {
            jrxe.addAll(List.of("--accept-timeout", "90"));
            try (Job s = lab.jrxe("jrxe " + t.command() + " -R server", jrxe.toArray(String[]::new))) {
                s.awaitOutput("* Waiting for client to connect... *", Duration.ofSeconds(90));
                Job.Result kernel = lab.guest(guest + " (client)", guest + " " + f.host, 120).await(RUN_LIMIT);
                return new Pair(s.await(RUN_LIMIT), kernel);
            }
        }
        try (Job s = lab.guest(guest + " (server)", guest, 150)) {
            CmPairings.awaitGuestCmListener(lab, s, port);
            jrxe.add(f.guest);
            Job.Result client = lab.jrxe("jrxe " + t.command() + " -R client", jrxe.toArray(String[]::new)).await(RUN_LIMIT);
            return new Pair(client, s.await(RUN_LIMIT));
        }
    }
}
