package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native provider's connection manager (librdmacm through java.lang.foreign) on the guest's rxe0,
 * in one guest JVM ({@link NativeCmPeer}): REJECTED with status 8 from a port nobody listens on, a
 * consumer's reject, a native server and client of its own in the TCP port space and in the UDP one
 * (SIDR, then a datagram to the QP and Q_Key its event gave), then rping's protocol against the
 * kernel's own rping both ways: as the client of `rping -s` and as the server of `rping -c -V`,
 * which validates what came back. rxe0 loops every packet back to itself (all on 10.77.0.2).
 */
@ExtendWith(LabExtension.class)
class NativeCmInteropTest {
    private static final int RPING_SERVER_PORT = 7300;
    private static final int JAVA_SERVER_PORT = 7301;

    @Test
    @Timeout(value = 16, unit = TimeUnit.MINUTES)
    void theNativeCmConnectsToTheKernelsRpingBothWaysAndToItself(Lab lab) throws Exception {
        long start = System.nanoTime();
        try (Job rpingServer = lab.guest("rping -s", "rping -s -a " + Lab.GUEST4 + " -p " + RPING_SERVER_PORT + " -v -C "
                + NativeCmPeer.RPING_COUNT, 840)) {
            lab.awaitGuestCmListening(rpingServer, RPING_SERVER_PORT);
            try (Job peer = lab.guest("NativeCmPeer", "cd /opt/jrxe && " + Lab.guestTestMain(NativeCmPeer.class)
                    + " " + Lab.GUEST4 + " " + RPING_SERVER_PORT
                    + " " + JAVA_SERVER_PORT, 840)) {
                peer.awaitOutput("LISTENING on " + Lab.GUEST4 + " port " + JAVA_SERVER_PORT, Duration.ofMinutes(12));
                Job.Result rpingClient = lab.guestNow("rping -c -a " + Lab.GUEST4 + " -p " + JAVA_SERVER_PORT + " -v -V -C "
                        + NativeCmPeer.RPING_COUNT, 120);
                Job.Result java = peer.await(Duration.ofMinutes(2));
                Job.Result server = rpingServer.await(Duration.ofSeconds(60));
                System.out.printf("native CM in the guest: %.0f s%n", (System.nanoTime() - start) / 1e9);
                System.out.println(java.output());

                assertThat(java.exitCode()).as("%s", java).isZero();
                assertThat(java.output()).as("%s", java).contains("steps: 7 ok, 0 failed")
                        .contains("nobody: RDMA_CM_EVENT_REJECTED, error 8")
                        .contains("client: RDMA_CM_EVENT_REJECTED, error 28")
                        .contains("client: RDMA_CM_EVENT_ESTABLISHED", "server: RDMA_CM_EVENT_ESTABLISHED")
                        .contains("client: RDMA_CM_EVENT_DISCONNECTED", "server: RDMA_CM_EVENT_DISCONNECTED");
                // The kernel's rping server READ each of the Java client's pings and WROTE it back (the Java client
                // compared it); the kernel's rping client, with -V, compared what the Java server wrote back.
                assertThat(server.exitCode()).as("%s", server).isZero();
                assertThat(rpingClient.exitCode()).as("%s", rpingClient).isZero();
                // (Not its "client DISCONNECT EVENT...": rping prints that from its CM thread, which may not run
                // before its main thread exits.)
                assertThat(rpingClient.output()).as("%s", rpingClient).doesNotContain("data mismatch");
                for (int ping = 0; ping < NativeCmPeer.RPING_COUNT; ping++) {
                    String data = Pattern.quote(rpingData(ping, NativeCmPeer.RPING_SIZE));
                    assertThat(server.output()).as("%s", server).containsPattern("(?m)^server ping data: " + data + "$");
                    assertThat(java.output()).as("%s", java).containsPattern("(?m)^ping data: " + data + "$")
                            .containsPattern("(?m)^server ping data: " + data + "$");
                    assertThat(rpingClient.output()).as("%s", rpingClient).containsPattern("(?m)^ping data: " + data + "$");
                }
            }
        }
    }

    /** What rping's client puts in ping {@code n}: "rdma-ping-n: " then letters from 'A' + n, wrapping after 'z'. */
    static String rpingData(int n, int size) {
        StringBuilder s = new StringBuilder("rdma-ping-" + n + ": ");
        char c = (char) ('A' + n % 58);
        while (s.length() < size - 1) {
            s.append(c);
            c = c == 'z' ? 'A' : (char) (c + 1);
        }
        return s.toString();
    }
}
