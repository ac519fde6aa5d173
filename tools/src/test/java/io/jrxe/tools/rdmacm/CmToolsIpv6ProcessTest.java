package io.jrxe.tools.rdmacm;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.NetworkNamespace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CM tools over IPv6, jrxe against jrxe. IPv6 has one loopback address and two jrxe NICs need two, so the test
 * makes a network namespace of its own with two addresses on its loopback (fd00:77::1 and ::2; root and iproute2
 * needed, else skipped with the reason) and runs both processes in it.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CmToolsIpv6ProcessTest {
    private static final int LIMIT_SECONDS = 90;
    private static final String SERVER = "fd00:77::1";
    private static final String CLIENT = "fd00:77::2";
    private static NetworkNamespace netns;

    @BeforeAll
    static void namespace() throws Exception {
        netns = NetworkNamespace.makeOrSkip("jrxe-cmtools", "IPv6 CM tools test");
        for (List<String> step : List.of(List.of("link", "set", "lo", "up"),
                List.of("-6", "addr", "add", SERVER + "/128", "dev", "lo", "nodad"),
                List.of("-6", "addr", "add", CLIENT + "/128", "dev", "lo", "nodad"))) {
            assertThat(netns.ipIn(step.toArray(String[]::new))).as("ip %s", step).isNull();
        }
    }

    @AfterAll
    static void removeNamespace() throws Exception {
        if (netns != null) {
            netns.close();
        }
    }

    private static ChildJrxe jrxe(String... args) {
        return ChildJrxe.startIn(netns.exec(), args);
    }

    @Test
    void rpingOverIpv6WithTheClientsNicOnItsSourceAddress() throws Exception {
        try (ChildJrxe server = jrxe("rping", "-s", "-a", SERVER, "-d", "-v")) {
            server.awaitLine(l -> l.equals("rdma_listen"), LIMIT_SECONDS);
            try (ChildJrxe client = jrxe("rping", "-c", "-a", SERVER, "-I", CLIENT, "-C", "2", "-v", "-V")) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isZero();
                assertThat(client.stdoutLines()).containsExactly(
                        "ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr",
                        "ping data: rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrs");
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
        }
        try (ChildJrxe alone = jrxe("rping", "-c", "-a", SERVER, "-C", "1")) {
            assertThat(alone.waitFor(LIMIT_SECONDS)).isEqualTo(1);
            assertThat(alone.stderr()).as("no second IPv6 loopback address to pick").contains("-I: the server " + SERVER
                    + " is on this host");
        }
    }

    @Test
    void udaddyOverIpv6AnswersFromTheIpv6HeaderInTheGrh() throws Exception {
        try (ChildJrxe server = jrxe("udaddy", "-b", SERVER, "-C", "3")) {
            server.awaitLine(l -> l.equals("udaddy: starting server"), LIMIT_SECONDS);
            try (ChildJrxe client = jrxe("udaddy", "-s", SERVER, "-b", CLIENT, "-C", "3")) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isZero();
                assertThat(client.stdoutLines()).contains("data transfers complete", "return status 0");
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
            assertThat(server.stdoutLines()).contains("sending replies", "data transfers complete", "return status 0");
        }
    }

    @Test
    void ucmatoseOverIpv6() throws Exception {
        try (ChildJrxe server = jrxe("ucmatose", "-b", SERVER, "-C", "3")) {
            server.awaitLine(l -> l.equals("cmatose: starting server"), LIMIT_SECONDS);
            try (ChildJrxe client = jrxe("ucmatose", "-s", SERVER, "-b", CLIENT, "-C", "3")) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isZero();
                assertThat(client.stdoutLines()).contains("sending replies", "return status 0");
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
            assertThat(server.stdoutLines()).contains("disconnected", "return status 0");
        }
    }
}
