package io.jrxe.tools;

import io.jrxe.tools.common.ChildJrxe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The build runs the end-to-end tests twice (tools/pom.xml, profile portable-path): once as the host allows, once with
 * JRXE_PORTABLE=true in the environment of the test JVM and of every jrxe it starts. This test runs in both and says
 * which path the children took, so that the second run cannot quietly be the first one again: with the variable a
 * child's NIC reads with NIO and sends through a UDP socket, without it on Linux it uses epoll.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PortableSwitchProcessTest {
    @Test
    void aChildTakesThePathTheEnvironmentAsksFor() throws Exception {
        boolean portable = "true".equals(System.getenv("JRXE_PORTABLE"));
        System.out.println("PortableSwitchProcessTest: JRXE_PORTABLE " + (portable ? "is true: the portable path" : "is not set: the host's path"));
        try (ChildJrxe devinfo = ChildJrxe.start("devinfo", "-v")) {
            assertThat(devinfo.waitFor(90)).as(devinfo.rawStderr()).isZero();
            List<String> lines = devinfo.stdoutLines();
            if (portable) {
                assertThat(lines).anyMatch(l -> l.trim().equals("udp_transport:\t\tNIO (epoll unavailable: portable path forced (JRXE_PORTABLE=true))"));
                assertThat(devinfo.rawStderr()).contains("IPv4 transmit: UDP socket (portable path forced (JRXE_PORTABLE=true))");
            } else if (System.getProperty("os.name").equals("Linux")) {
                assertThat(lines).anyMatch(l -> l.trim().equals("udp_transport:\t\tepoll (recvmmsg)"));
            } else {
                assertThat(lines).anyMatch(l -> l.trim().startsWith("udp_transport:\t\tNIO (epoll unavailable"));
            }
        }
    }
}
