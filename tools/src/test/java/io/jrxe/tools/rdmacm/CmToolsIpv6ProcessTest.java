package io.jrxe.tools.rdmacm;

import io.jrxe.tools.common.ChildJrxe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
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
    private static final String NETNS = "jrxe-cmtools-" + ProcessHandle.current().pid();
    private static final String SERVER = "fd00:77::1";
    private static final String CLIENT = "fd00:77::2";
    private static boolean made;

    @BeforeAll
    static void namespace() throws Exception {
        String why = ip("netns", "add", NETNS);
        if (why != null) {
            System.out.println("SKIPPED: IPv6 CM tools test: cannot make a network namespace (root and iproute2 needed): " + why);
            Assumptions.abort("cannot make a network namespace: " + why);
        }
        made = true;
        for (List<String> step : List.of(List.of("link", "set", "lo", "up"),
                List.of("-6", "addr", "add", SERVER + "/128", "dev", "lo", "nodad"),
                List.of("-6", "addr", "add", CLIENT + "/128", "dev", "lo", "nodad"))) {
            String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("-n", NETNS), step.stream()).toArray(String[]::new);
            assertThat(ip(args)).as("ip %s", step).isNull();
        }
    }

    @AfterAll
    static void removeNamespace() throws Exception {
        if (made) {
            ip("netns", "del", NETNS);
        }
    }

    /** Runs ip; null when it succeeded, else what it said. */
    private static String ip(String... args) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(java.util.stream.Stream.concat(java.util.stream.Stream.of("ip"), java.util.Arrays.stream(args)).toList())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "ip did not finish";
            }
            return p.exitValue() == 0 ? null : out;
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    private static ChildJrxe jrxe(String... args) {
        return ChildJrxe.startIn(List.of("ip", "netns", "exec", NETNS), args);
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
