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
 * The last pairing checks no data: rxe 7.2 copies each packet of a message to or from an ODP MR at
 * the start of the page instead of at the packet's place in it, so that ibv_rc_pingpong -o -c fails
 * its own check against any peer (docs/interop.md, "rxe 7.2 and on-demand paging").
 */
@ExtendWith(LabExtension.class)
@OnLabRelease(LabRelease.SID)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SidOdpInteropTest {
    private static final int ITERATIONS = 20;

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
}
