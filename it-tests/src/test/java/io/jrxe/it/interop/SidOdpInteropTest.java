package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.jrxe.it.interop.Pairings.assertPingpong;
import static io.jrxe.it.interop.Pairings.pair;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * On-demand paging against the first kernel rxe that has it (Linux 7.2 in Debian unstable): the caps
 * rxe0 reports are the ones a jrxe NIC reports, jrxe's ODP memory carries ibv_rc_pingpong's checked
 * data both ways, and rdma-core 65's ibv_rc_pingpong with ODP and prefetch (-o -P) pairs with jrxe's.
 * <p>
 * Through the native provider, jrxe's own tools register rxe0's memory on demand and prefetch it with
 * ibv_advise_mr (rxe serves it from Linux 6.17): `pingpong -d rxe0 -o -P -c` pairs with ibv_rc_pingpong on the same
 * device, `write-bw -d rxe0 --odp` pairs with ib_write_bw --odp, `regmr-cost --odp -d rxe0` times rxe0's first touch, and `compare --scenario odp` holds rxe0's faults,
 * prefetch and invalidation side by side with a jrxe NIC's.
 * <p>
 * The ibv_rc_pingpong -o -P pairing with a jrxe NIC checks no data: rxe 7.2 copies each packet of a message to or from an ODP MR at
 * the start of the page instead of at the packet's place in it, so that ibv_rc_pingpong -o -c fails
 * its own check against any peer (docs/interop.md, "rxe 7.2 and on-demand paging").
 */
@ExtendWith(LabExtension.class)
@OnLabRelease(LabRelease.SID)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SidOdpInteropTest {
    private static final int ITERATIONS = 20;
    private static final int GUEST_LIMIT = 180;

    @Test
    void rxe0ReportsTheOdpCapsOfAJrxeNic(Lab lab) throws Exception {
        Job.Result kernel = lab.guestNow("ibv_devinfo -v -d rxe0", 30);
        Job.Result jrxe = Lab.jrxeHere("devinfo", "-v");
        assertThat(kernel.exitCode()).as("%s", kernel).isZero();
        assertThat(jrxe.exitCode()).as("%s", jrxe).isZero();
        List<String> expected = NativeDevinfoInteropTest.odpSection(kernel.output());
        assertThat(expected).as("rxe0 has ODP: %s", kernel).contains("\t\t\t\t\tODP_SUPPORT");
        assertThat(NativeDevinfoInteropTest.odpSection(jrxe.output())).as("%s", jrxe).isEqualTo(expected);
    }

    /** jrxe registers its buffer on demand and prefetches it; rxe0 pins its own and checks what jrxe sent (-c). */
    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void jrxesOdpMemoryCarriesCheckedData(Server server, Lab lab) throws Exception {
        Pair p = pair(lab, server, 18760 + server.ordinal(), "ibv_rc_pingpong -d rxe0 -g " + lab.guestGid6() + " -c -n " + ITERATIONS,
                "pingpong", "--addr", Lab.HOST6, "-o", "-P", "-c", "-n", String.valueOf(ITERATIONS));
        assertPingpong(p, ITERATIONS, Gids.IPV6);
        assertThat(p.jrxe().output()).as("%s", p.jrxe()).containsPattern("ODP on jrxe0: page_faults=\\d+ prefetched_pages=[1-9]");
    }

    /** Both sides register on demand and prefetch (ibv_rc_pingpong -o -P), as rdma-core 65 does it. */
    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void rdmaCoresOdpPingpongPairsWithJrxes(Server server, Lab lab) throws Exception {
        Pair p = pair(lab, server, 18762 + server.ordinal(), "ibv_rc_pingpong -d rxe0 -g " + lab.guestGid6() + " -o -P -n " + ITERATIONS,
                "pingpong", "--addr", Lab.HOST6, "-o", "-P", "-n", String.valueOf(ITERATIONS));
        assertPingpong(p, ITERATIONS, Gids.IPV6);
        assertThat(p.jrxe().output()).as("%s", p.jrxe()).contains("ODP on jrxe0:");
    }

    /** Two processes in the guest on rxe0: jrxe's pingpong through the native provider, ODP memory prefetched, checks. */
    @Test
    void nativeOdpPingpongWithPrefetchPairsWithRdmaCores(Lab lab) throws Exception {
        int port = 18764;
        String common = " -d rxe0 -g 1 -p " + port + " -o -P -c -n " + ITERATIONS;
        Job.Result both = lab.guestNow("cd /tmp && (" + Lab.GUEST_JRXE + " pingpong" + common
                + " > /tmp/odp-pp-server.out 2>&1; echo \"server exit $?\" >> /tmp/odp-pp-server.out) & "
                + "for i in $(seq 120); do ss -ltn | grep -q ':" + port + " ' && break; sleep 1; done; "
                + "ibv_rc_pingpong" + common + " 127.0.0.1; echo \"client exit $?\"; wait; cat /tmp/odp-pp-server.out",
                GUEST_LIMIT);
        String out = both.output();
        assertThat(both.exitCode()).as("%s", both).isZero();
        assertThat(out).as("%s", both).contains("client exit 0", "server exit 0")
                .doesNotContain("EOPNOTSUPP", "Exception");
        assertThat(out.lines().filter(l -> l.startsWith(ITERATIONS + " iters in"))).as("both sides' results: %s", both)
                .hasSize(2);
    }

    /** regmr-cost --odp on rxe0: the first-touch table comes from ibv_advise_mr through the native provider. */
    @Test
    void nativeProviderPrefetchesRxe0sOdpMemory(Lab lab) throws Exception {
        Job.Result cost = lab.guestNow("cd /tmp && " + Lab.GUEST_JRXE
                + " regmr-cost --odp -d rxe0 --sizes 4K,1M --repeat 3 --max-rounds 3", GUEST_LIMIT);
        assertThat(cost.exitCode()).as("%s", cost).isZero();
        assertThat(cost.output()).as("%s", cost).contains("first touch of a fresh ON_DEMAND registration")
                .doesNotContain("cannot prefetch")
                // rxe0 has no counters of the pages a prefetch brought in: shown as "-", not as 0.
                .containsPattern("(?m)^ +1MiB +256 .* - +-$");
    }

    /**
     * `jrxe compare -d rxe0 --scenario odp` in the guest: every kind of first touch, a prefetch and an invalidation
     * (the kernel's own, after madvise DONTNEED) end alike on two jrxe NICs and on two QPs of rxe0. In a network
     * namespace of its own, as {@link NativeCompareInteropTest}.
     */
    @Test
    void theOdpStepsBehaveAlikeOnJrxeAndOnRxe0(Lab lab) throws Exception {
        Job.Result compare = lab.guestNow("cd /tmp && unshare -n sh -c 'ip link set lo up; "
                + Lab.GUEST_JRXE + " compare -d rxe0 --scenario odp'", GUEST_LIMIT);
        String out = compare.output();
        assertThat(compare.exitCode()).as("%s", compare).isZero();
        assertThat(out).as("%s", compare).contains("rxe0 (the kernel's, through libibverbs)", "Same behaviour in every step.");
        assertThat(out.lines().filter(l -> l.startsWith("!"))).as("rows marked as differing: %s", compare).isEmpty();
        assertThat(out).as("%s", compare).containsPattern("(?m)^7\\. ")
                .containsPattern("(?m)^  memory +prefetched; B\\(odp\\)\\+8192: .* +prefetched; ")
                .containsPattern("(?m)^  memory +B's word 42, A got 40 +B's word 42, A got 40$");
    }

    /** perftest's --odp through the native provider: jrxe's write-bw on rxe0 pairs with ib_write_bw --odp on rxe0. */
    @Test
    void nativeWriteBwWithOdpPairsWithPerftests(Lab lab) throws Exception {
        int port = 18768;
        String common = " -d rxe0 -x 1 --odp -n 200 -s 65536 -p " + port;
        Job.Result both = lab.guestNow("cd /tmp && (ib_write_bw" + common + " > /tmp/odp-bw-server.out 2>&1; "
                + "echo \"server exit $?\" >> /tmp/odp-bw-server.out) & "
                + "for i in $(seq 60); do ss -ltn | grep -q ':" + port + " ' && break; sleep 1; done; "
                + Lab.GUEST_JRXE + " write-bw" + common + " 127.0.0.1; echo \"client exit $?\"; wait; "
                + "cat /tmp/odp-bw-server.out", GUEST_LIMIT);
        String out = both.output();
        assertThat(both.exitCode()).as("%s", both).isZero();
        assertThat(out).as("%s", both).contains("client exit 0", "server exit 0").doesNotContain("Exception");
        assertThat(out.lines().filter(l -> l.matches(" *65536 +200 .*"))).as("both sides' result rows: %s", both).hasSize(2);
    }
}
