package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * UD multicast between the guest's rxe0 and a jrxe NIC across the lab's bridge, both ways, over IPv4 and IPv6:
 * `jrxe mcast -d rxe0` in the guest (the native provider: ibv_attach_mcast, a UD SEND to QP 0xFFFFFF) and
 * `jrxe mcast` on a jrxe NIC in the namespace, each printing every datagram with its sender. Kernel rxe attaches
 * its QP without joining the IP group, so the guest's command joins it through a UDP socket; without that join
 * (--no-ip-join) rxe0 receives nothing, which the last test keeps in view. Run against a lab release by a subclass
 * per release.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
abstract class KernelRxeMulticast {
    /** A JVM starting under TCG takes a minute or two before it attaches and waits. */
    private static final int GUEST_LIMIT = 300;
    private static final Duration RUN_LIMIT = Duration.ofSeconds(330);
    private static final String GUEST_MCAST = "cd /tmp && " + Lab.GUEST_JRXE + " mcast -d rxe0 --counters";

    /**
     * The steps after which rxe0 stays busy and jrxe does not (differences.md): the core counts a use of the QP for
     * every attach the driver took and gives it back only for a detach the driver took, and rxe takes an attach of a
     * group the QP is already in (a second LID) but refuses the detach of the one it left; that use is never given
     * back, so the QP, and then its CQ and PD, cannot be destroyed. jrxe releases them.
     */
    private static final List<String> BUSY_ON_RXE0_ONLY = List.of("destroy the detached QP", "destroy the CQ", "free the PD");

    @Test
    void ipv4BothWays(Lab lab) throws Exception {
        bothWays(lab, "239.192.77.4", Lab.HOST4, Lab.GUEST4);
    }

    @Test
    void ipv6BothWays(Lab lab) throws Exception {
        bothWays(lab, "ff0e::77:6", Lab.HOST6, Lab.GUEST6);
    }

    /** rxe0 receives from a jrxe NIC, then a jrxe NIC from rxe0; three datagrams each way. */
    private static void bothWays(Lab lab, String group, String jrxeAddress, String guestAddress) throws Exception {
        long start = System.nanoTime();
        try (Job guest = lab.guest("mcast receiver on rxe0", GUEST_MCAST + " " + group + " --recv 3 --timeout 120", GUEST_LIMIT)) {
            guest.awaitOutput("waiting for 3 datagrams", Duration.ofSeconds(GUEST_LIMIT));
            Job.Result sender;
            try (Job s = lab.jrxe("jrxe mcast sender", "mcast", group, "--send", "3", "--addr", jrxeAddress, "--counters")) {
                sender = s.await(RUN_LIMIT);
            }
            Job.Result received = guest.await(RUN_LIMIT);
            assertThat(sender.exitCode()).as("%s", sender).isZero();
            assertReceivedThree(received, jrxeAddress, "jrxe0");
            assertThat(received.output()).as("%s", received).contains("joined " + group + " on eth0");
        }
        try (Job jrxe = lab.jrxe("jrxe mcast receiver", "mcast", group, "--recv", "3", "--timeout", "300", "--addr", jrxeAddress,
                "--counters")) {
            jrxe.awaitOutput("waiting for 3 datagrams", Duration.ofSeconds(60));
            Job.Result sender = lab.guest("mcast sender on rxe0", GUEST_MCAST + " " + group + " --send 3", GUEST_LIMIT).await(RUN_LIMIT);
            Job.Result received = jrxe.await(RUN_LIMIT);
            assertThat(sender.exitCode()).as("%s", sender).isZero();
            assertThat(sender.output()).as("%s", sender).contains("sent 3/3", "sent_pkts=3");
            assertReceivedThree(received, guestAddress, "rxe0");
            assertThat(received.output()).as("%s", received).contains("jrxe_mcast_copies=3");
        }
        System.out.printf("mcast %s both ways: %.0f s%n", group, (System.nanoTime() - start) / 1e9);
    }

    private static void assertReceivedThree(Job.Result r, String from, String senderDevice) {
        assertThat(r.exitCode()).as("%s", r).isZero();
        assertThat(r.output().lines().filter(l -> l.startsWith("received "))).as("%s", r).hasSize(3)
                .allSatisfy(l -> assertThat(l).contains("64 bytes from " + from + " QP 0x", "from " + senderDevice + " QP"));
        assertThat(r.output()).as("%s", r).contains("mcast: sent 0, received 3", "rcvd_pkts=3");
    }

    /** ibv_attach_mcast and ibv_detach_mcast answer on a jrxe NIC as on rxe0, step by step, and the limits are rxe's. */
    @Test
    void attachAndDetachAnswerAsOnRxe0(Lab lab) throws Exception {
        List<String> jrxe = MulticastRules.on("jrxe", "127.0.9." + (1 + ThreadLocalRandom.current().nextInt(254)));
        Job.Result guest = lab.guestNow("cd /opt/jrxe && " + Lab.guestTestMain(MulticastRules.class) + " rxe0", GUEST_LIMIT);
        assertThat(guest.exitCode()).as("%s", guest).isZero();
        List<String> lines = guest.output().lines().toList();
        int first = lines.indexOf(lines.stream().filter(l -> l.startsWith("max_mcast_grp")).findFirst().orElseThrow(
                () -> new AssertionError("no result lines: " + guest)));
        List<String> kernel = lines.subList(first, lines.indexOf("done"));
        System.out.println("rxe0's answers:\n  " + String.join("\n  ", kernel));
        assertThat(kernel).as("rxe0's QP, CQ and PD stay busy after the refused detach")
                .contains(BUSY_ON_RXE0_ONLY.stream().map(step -> step + ": EBUSY").toArray(String[]::new));
        List<String> expected = kernel.stream()
                .map(l -> BUSY_ON_RXE0_ONLY.stream().anyMatch(step -> l.equals(step + ": EBUSY")) ? l.replace(": EBUSY", ": OK") : l)
                .toList();
        assertThat(jrxe).as("jrxe's answers, against rxe0's (where rxe0 stays busy, jrxe releases)").containsExactlyElementsOf(expected);
        assertThat(kernel).contains("attach an RC QP: EINVAL", "destroy an attached QP: EBUSY",
                "max_mcast_grp 8192, max_mcast_qp_attach 56, max_total_mcast_qp_attach 458752");
    }

    /** What rxe in Linux 6.1 does not do: join the IP group. Its QP is attached, the packets are on the bridge, none arrives. */
    @Test
    void withoutAnIpJoinRxe0ReceivesNothing(Lab lab) throws Exception {
        String group = "239.192.77.5";
        // The guest waits 20 s from its "waiting" line; the sender, a JVM on the host, is done in a few.
        try (Job guest = lab.guest("mcast receiver on rxe0 without a join", GUEST_MCAST + " " + group
                + " --recv 1 --timeout 20 --no-ip-join", GUEST_LIMIT)) {
            guest.awaitOutput("waiting for 1 datagram", Duration.ofSeconds(GUEST_LIMIT));
            Job.Result sender;
            try (Job s = lab.jrxe("jrxe mcast sender", "mcast", group, "--send", "3", "--addr", Lab.HOST4)) {
                sender = s.await(RUN_LIMIT);
            }
            assertThat(guest.isAlive()).as("rxe0 still waited when the datagrams had gone out: %s", sender).isTrue();
            Job.Result guestResult = guest.await(RUN_LIMIT);
            assertThat(sender.exitCode()).as("%s", sender).isZero();
            assertThat(guestResult.exitCode()).as("%s", guestResult).isEqualTo(2);
            assertThat(guestResult.output()).as("%s", guestResult).contains("received 0 of 1 datagrams")
                    .doesNotContain("joined ");
        }
    }
}
