package io.jrxe.tools.demo;

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
 * `jrxe demo` on a host whose loopback has only 127.0.0.1/32, as macOS's has: a network namespace the test makes (root
 * and iproute2 needed, else skipped with the reason; {@link DemoPlacementTest} checks the choice without one). Bringing
 * lo up gives it 127.0.0.1/8, so the addresses are replaced after.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DemoLoopbackOnlyProcessTest {
    private static final int LIMIT_SECONDS = 90;
    private static final String FALLBACK = "jrxe demo: 127.0.0.2 is not an address of this machine: both NICs on 127.0.0.1,"
            + " jrxe0 on UDP port 4791 and jrxe1 on 4792 (--addr-b picks another address)";
    private static NetworkNamespace netns;

    @BeforeAll
    static void namespace() throws Exception {
        netns = NetworkNamespace.makeOrSkip("jrxe-lo1", "demo on a loopback with only 127.0.0.1");
        for (List<String> step : List.of(List.of("link", "set", "lo", "up"), List.of("addr", "flush", "dev", "lo"),
                List.of("addr", "add", "127.0.0.1/32", "dev", "lo"))) {
            assertThat(netns.ipIn(step.toArray(String[]::new))).as("ip %s", step).isNull();
        }
    }

    @AfterAll
    static void removeNamespace() throws Exception {
        if (netns != null) {
            netns.close();
        }
    }

    @Test
    void theDemoTakesTwoPortsOfTheOneAddressAndSaysSo() throws Exception {
        for (List<String> options : List.of(List.<String>of(), List.of("-Djrxe.portable=true"))) {
            try (ChildJrxe demo = ChildJrxe.startIn(netns.exec(), options, "demo", "--no-capture")) {
                assertThat(demo.waitFor(LIMIT_SECONDS)).as("%s: %s", options, demo.stderr()).isZero();
                List<String> out = demo.stdoutLines();
                assertThat(out.getFirst()).isEqualTo(FALLBACK);
                assertThat(out).contains("  jrxe0 at 127.0.0.1:4791, jrxe1 at 127.0.0.1:4792, transport "
                        + (options.isEmpty() ? "epoll (recvmmsg)" : "NIO (epoll unavailable: portable path forced (-Djrxe.portable=true))")
                        + ", path MTU 1024");
                assertThat(out.getLast()).isEqualTo("All steps behaved as expected.");
            }
        }
    }

    @Test
    void aSecondAddressAskedForThatIsMissingIsStillAOneLineError() throws Exception {
        try (ChildJrxe demo = ChildJrxe.startIn(netns.exec(), "demo", "--no-capture", "--addr-b", "127.0.0.2")) {
            assertThat(demo.waitFor(LIMIT_SECONDS)).isEqualTo(2);
            assertThat(demo.stderr()).isEqualTo("jrxe demo: 127.0.0.2 is not an address of this machine (see `ip addr`)\n");
            assertThat(demo.stdoutLines()).noneMatch(l -> l.contains("4792"));
        }
    }
}
