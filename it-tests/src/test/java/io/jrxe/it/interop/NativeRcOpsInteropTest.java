package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe rc-ops` with the native provider on the guest's rxe0 (libibverbs through java.lang.foreign, with the host's
 * JDK and jars over the 9p share) facing a jrxe NIC in the lab's namespace, both ways, and facing another native QP
 * of rxe0: SEND/RECV, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ, the two atomics and a SEND of five
 * packets, each checked on both sides (the client's completions, READ data and atomics' old values; the server's
 * receive completions, immediate data and memory). RoCE runs between the IPv6 GIDs (and once between the IPv4
 * ones); the TCP exchange over IPv4.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class NativeRcOpsInteropTest {
    private static final Duration RUN_LIMIT = Duration.ofSeconds(330);
    /** A JVM starting under TCG takes a minute or two before it listens; the server waits this long for its client. */
    private static final int GUEST_LIMIT = 300;
    private static final String GUEST_JRXE = "cd /tmp && " + Lab.GUEST_JRXE + " rc-ops -d rxe0";

    @Test
    void theKernelsRxe0ServesAJrxeClient(Lab lab) throws Exception {
        int port = 18651;
        long start = System.nanoTime();
        try (Job server = lab.guest("rc-ops on rxe0 (server)", GUEST_JRXE + " -g " + lab.guestGid6() + " -p " + port
                + " --timeout 60 --accept-timeout 240", GUEST_LIMIT)) {
            lab.awaitGuestListening(server, port, Duration.ofSeconds(240));
            Job.Result client;
            try (Job c = lab.jrxe("jrxe rc-ops client", "rc-ops", "--addr", Lab.HOST6, "-p", String.valueOf(port),
                    "--timeout", "60", Lab.GUEST4)) {
                client = c.await(RUN_LIMIT);
            }
            Job.Result kernel = server.await(RUN_LIMIT);
            assertBothPassed(client, kernel, "jrxe0 (emulated)", "rxe0 (native)");
        }
        System.out.printf("rc-ops, rxe0 serving jrxe: %.0f s%n", (System.nanoTime() - start) / 1e9);
    }

    @Test
    void aJrxeNicServesTheKernelsRxe0(Lab lab) throws Exception {
        jrxeServes(lab, 18652, Lab.HOST6, lab.guestGid6(), "IPv6");
    }

    /** Over the IPv4 GIDs: jrxe's raw-socket transmit path, with the IP identification its ICRC was computed for. */
    @Test
    void aJrxeNicServesTheKernelsRxe0OverIpv4(Lab lab) throws Exception {
        jrxeServes(lab, 18654, Lab.HOST4, lab.guestGid4(), "IPv4");
    }

    private static void jrxeServes(Lab lab, int port, String jrxeAddress, int guestGid, String family) throws Exception {
        long start = System.nanoTime();
        try (Job server = lab.jrxe("jrxe rc-ops server", "rc-ops", "--addr", jrxeAddress, "-p", String.valueOf(port),
                "--accept-timeout", "240", "--timeout", "60")) {
            lab.awaitJrxeListening(server, port);
            Job.Result kernel = lab.guest("rc-ops on rxe0 (client)", GUEST_JRXE + " -g " + guestGid + " -p " + port
                    + " --timeout 60 " + Lab.HOST4, GUEST_LIMIT).await(RUN_LIMIT);
            Job.Result jrxe = server.await(RUN_LIMIT);
            assertBothPassed(kernel, jrxe, "rxe0 (native)", "jrxe0 (emulated)");
        }
        System.out.printf("rc-ops, jrxe serving rxe0 over %s: %.0f s%n", family, (System.nanoTime() - start) / 1e9);
    }

    /** Two JVMs in the guest, each with a QP of rxe0; rxe hands their packets to each other inside the kernel. */
    @Test
    void twoNativeQpsOfRxe0(Lab lab) throws Exception {
        int port = 18653;
        long start = System.nanoTime();
        String gid = " -g " + lab.guestGid6() + " -p " + port;
        Job.Result both = lab.guestNow("(" + GUEST_JRXE + gid + " --timeout 60 --accept-timeout 240 > /tmp/rcops-server.out 2>&1; "
                + "echo \"server exit $?\" >> /tmp/rcops-server.out) & " + GUEST_JRXE + gid + " --timeout 240 127.0.0.1; "
                + "echo \"client exit $?\"; wait; cat /tmp/rcops-server.out", GUEST_LIMIT);
        String out = both.output();
        assertThat(both.exitCode()).as("%s", both).isZero();
        assertThat(out).as("%s", both).contains("client exit 0", "server exit 0", "rc-ops client: every check passed",
                "rc-ops server: every check passed", "rc-ops client on rxe0 (native)", "rc-ops server on rxe0 (native)")
                .doesNotContain("FAIL");
        assertThat(out.lines().filter(l -> l.startsWith("ok"))).as("%s", both).hasSize(9 + 6);
        System.out.printf("rc-ops, two native QPs: %.0f s%n", (System.nanoTime() - start) / 1e9);
    }

    private static void assertBothPassed(Job.Result client, Job.Result server, String clientDevice, String serverDevice) {
        assertThat(client.exitCode()).as("%s%n%s", client, server).isZero();
        assertThat(server.exitCode()).as("%s%n%s", server, client).isZero();
        assertThat(client.output()).as("%s", client).contains("rc-ops client on " + clientDevice,
                "rc-ops client: every check passed", "ok    the server's checks passed").doesNotContain("FAIL");
        assertThat(client.output().lines().filter(l -> l.startsWith("ok"))).as("%s", client).hasSize(9);
        assertThat(server.output()).as("%s", server).contains("rc-ops server on " + serverDevice,
                "rc-ops server: every check passed", "holds 111").doesNotContain("FAIL");
        assertThat(server.output().lines().filter(l -> l.startsWith("ok"))).as("%s", server).hasSize(6);
    }
}
