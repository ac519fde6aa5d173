package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe rping --provider native` in the guest, on rxe0 through librdmacm and the kernel's CM (java.lang.foreign,
 * the host's JDK and jars over the 9p share), against `jrxe rping` on a jrxe NIC in the lab's namespace, each side
 * serving: the same program on both providers, connected by their connection managers alone.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class NativeRpingInteropTest {
    private static final Duration RUN_LIMIT = Duration.ofSeconds(330);
    /** A JVM starting under TCG takes a minute or two before it listens or connects. */
    private static final int GUEST_LIMIT = 300;
    private static final String GUEST_RPING = "cd /tmp && " + Lab.GUEST_JRXE + " rping --provider native";
    private static final List<String> PINGS = List.of(
            "ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr",
            "ping data: rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrs",
            "ping data: rdma-ping-2: CDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrst");

    @Test
    void theNativeRpingOnRxe0ServesAJrxeRping(Lab lab) throws Exception {
        int port = 17601;
        try (Job server = lab.guest("jrxe rping --provider native (server)", GUEST_RPING + " -s -v -p " + port
                + " -a " + Lab.GUEST4, GUEST_LIMIT)) {
            CmPairings.awaitGuestCmListener(lab, server, port, Duration.ofSeconds(GUEST_LIMIT - 30));
            Job.Result client = lab.jrxe("jrxe rping client", "rping", "-c", "-v", "-V", "-C", "3", "-p",
                    String.valueOf(port), "-a", Lab.GUEST4).await(RUN_LIMIT);
            Job.Result native_ = server.await(RUN_LIMIT);
            assertPinged(native_, client);
        }
    }

    @Test
    void aJrxeRpingServesTheNativeRpingOnRxe0(Lab lab) throws Exception {
        int port = 17602;
        try (Job server = lab.jrxe("jrxe rping server", "rping", "-s", "-v", "-d", "-p", String.valueOf(port),
                "-a", Lab.HOST6)) {
            server.awaitOutput("rdma_listen", Duration.ofSeconds(90));
            Job.Result client = lab.guest("jrxe rping --provider native (client)", GUEST_RPING + " -c -v -V -C 3 -p "
                    + port + " -a " + Lab.HOST6, GUEST_LIMIT).await(RUN_LIMIT);
            assertPinged(server.await(RUN_LIMIT), client);
        }
    }

    private static void assertPinged(Job.Result server, Job.Result client) {
        assertThat(client.exitCode()).as("the client: %s%nthe server: %s", client, server).isZero();
        assertThat(server.exitCode()).as("the server: %s%nthe client: %s", server, client).isZero();
        assertThat(CmPairings.lines(client)).as("%s", client).containsSubsequence(PINGS);
        assertThat(CmPairings.lines(server)).as("%s", server)
                .containsSubsequence(PINGS.stream().map(p -> "server " + p).toList());
    }
}
