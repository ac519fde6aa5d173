package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * IBTA 1.5's placement operations against the kernel, run against every lab release that has them (a subclass per
 * release): `jrxe rc-ops --placement` on the guest's rxe0 through the native provider, whose QP is made by
 * ibv_create_qp_ex and posts ATOMIC_WRITE and FLUSH through ibv_wr_atomic_write and ibv_wr_flush, facing a jrxe
 * NIC, each side as the requester in turn: the requester checks its completions (ATOMIC_WRITE, then an RDMA_WRITE
 * and a FLUSH of its range posted as one chain), the responder the 8 bytes ATOMIC_WRITE put in place and the bytes
 * the flushed WRITE left, with the rest of rc-ops' operations before them. jrxe's client computes FLUSH's ICRC as
 * rxe does (--rxe-flush-icrc): rxe drops a FLUSH whose ICRC is IBTA's.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 8, unit = TimeUnit.MINUTES)
abstract class KernelRxePlacement {
    private static final Duration RUN_LIMIT = Duration.ofSeconds(330);
    private static final int GUEST_LIMIT = 300;
    private static final String GUEST_JRXE = "cd /tmp && " + Lab.GUEST_JRXE + " rc-ops --placement -d rxe0";

    @Test
    void rxe0PerformsThemOnAJrxeNic(Lab lab) throws Exception {
        int port = 18656;
        try (Job server = lab.jrxe("jrxe rc-ops --placement server", "rc-ops", "--placement", "--addr", Lab.HOST6, "-p",
                String.valueOf(port), "--accept-timeout", "240", "--timeout", "60")) {
            lab.awaitJrxeListening(server, port);
            Job.Result kernel = lab.guest("rc-ops --placement on rxe0 (client)", GUEST_JRXE + " -g " + lab.guestGid6() + " -p "
                    + port + " --timeout 60 " + Lab.HOST4, GUEST_LIMIT).await(RUN_LIMIT);
            assertBothPassed(kernel, server.await(RUN_LIMIT), "rxe0 (native)", "jrxe0 (emulated)");
        }
    }

    @Test
    void aJrxeNicPerformsThemOnRxe0(Lab lab) throws Exception {
        int port = 18657;
        try (Job server = lab.guest("rc-ops --placement on rxe0 (server)", GUEST_JRXE + " -g " + lab.guestGid6() + " -p " + port
                + " --timeout 60 --accept-timeout 240", GUEST_LIMIT)) {
            lab.awaitGuestListening(server, port, Duration.ofSeconds(240));
            Job.Result client;
            try (Job c = lab.jrxe("jrxe rc-ops --placement client", "rc-ops", "--placement", "--rxe-flush-icrc", "--addr", Lab.HOST6, "-p",
                    String.valueOf(port), "--timeout", "60", Lab.GUEST4)) {
                client = c.await(RUN_LIMIT);
            }
            assertBothPassed(client, server.await(RUN_LIMIT), "jrxe0 (emulated)", "rxe0 (native)");
        }
    }

    /**
     * `jrxe compare -d rxe0 --scenario placement` in the guest (a network namespace of its own, as in
     * {@link NativeCompareInteropTest}): every completion, byte count, memory and QP state alike on two jrxe NICs and
     * on two QPs of rxe0. What may differ is what docs/differences.md lists: rxe refuses FLUSH_PERSISTENT on ordinary
     * memory, and jrxe asks for no ACK of a WRITE that a FLUSH follows when both are queued (one packet each way
     * fewer), which depends on when its NIC thread sees the chain.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void compareFindsOnlyTheDocumentedDifferences(Lab lab) throws Exception {
        Job.Result compare = lab.guestNow("cd /tmp && unshare -n sh -c 'ip link set lo up; "
                + Lab.GUEST_JRXE + " compare -d rxe0 --scenario placement'", 480);
        String out = compare.output();
        assertThat(compare.exitCode()).as("%s", compare).isEqualTo(1);
        for (int step = 1; step <= 10; step++) {
            assertThat(out).as("%s", compare).containsPattern("(?m)^" + step + "\\. ");
        }
        assertThat(out).as("%s", compare).containsPattern("(?m)^  on A +ATOMIC_WRITE SUCCESS len=8 +ATOMIC_WRITE SUCCESS len=8")
                .containsPattern("(?m)^  on A +FLUSH SUCCESS len=4096 +FLUSH SUCCESS len=4096")
                .contains("reg_mr registered it", "reg_mr refused: EINVAL");
        List<String> differences = out.lines().dropWhile(l -> !l.contains("difference(s) in behaviour")).skip(1)
                .map(String::strip).filter(l -> !l.isEmpty()).toList();
        assertThat(differences).as("%s", compare).contains("register-persistent: memory")
                .isSubsetOf("register-persistent: memory", "write-flush: counters");
    }

    private static void assertBothPassed(Job.Result client, Job.Result server, String clientDevice, String serverDevice) {
        assertThat(client.exitCode()).as("%s%n%s", client, server).isZero();
        assertThat(server.exitCode()).as("%s%n%s", server, client).isZero();
        assertThat(client.output()).as("%s", client).contains("rc-ops client on " + clientDevice,
                "ok    9. ATOMIC_WRITE", "0x1122334455667788 put in place at once",
                "ok    10. RDMA_WRITE, then FLUSH", "rc-ops client: every check passed", "ok    the server's checks passed")
                .doesNotContain("FAIL");
        assertThat(client.output().lines().filter(l -> l.startsWith("ok"))).as("%s", client).hasSize(11);
        assertThat(server.output()).as("%s", server).contains("rc-ops server on " + serverDevice,
                "ok    ATOMIC_WRITE's target", "holds 0x1122334455667788", "ok    the FLUSHed WRITE's bytes",
                "rc-ops server: every check passed").doesNotContain("FAIL");
        assertThat(server.output().lines().filter(l -> l.startsWith("ok"))).as("%s", server).hasSize(8);
    }
}
