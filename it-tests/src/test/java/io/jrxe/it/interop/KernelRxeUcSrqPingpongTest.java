package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;

import static io.jrxe.it.interop.Pairings.assertPingpong;
import static io.jrxe.it.interop.Pairings.pair;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * jrxe's uc-pingpong and srq-pingpong against the real ibv_uc_pingpong and ibv_srq_pingpong on
 * rxe0 in the lab's guest, each pairing both ways, over the IPv6 GIDs (the TCP exchange over
 * IPv4, as in {@link KernelRxeInteropTest}). Neither side is given -c: the data check is
 * ibv_rc_pingpong's and ibv_ud_pingpong's pairing's business ({@link KernelRxeInteropTest}).
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KernelRxeUcSrqPingpongTest {
    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void ucPingpong(Server server, Lab lab) throws Exception {
        Pair p = pair(lab, server, 18700 + server.ordinal(), "ibv_uc_pingpong -d rxe0 -g " + lab.guestGid6() + " -n 50",
                "uc-pingpong", "--addr", Lab.HOST6, "-n", "50");
        assertPingpong(p, 50, Gids.IPV6);
    }

    /** The real program's default of 16 QPs on one SRQ: one address line each way per QP. */
    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void srqPingpong(Server server, Lab lab) throws Exception {
        Pair p = pair(lab, server, 18702 + server.ordinal(), "ibv_srq_pingpong -d rxe0 -g " + lab.guestGid6() + " -n 50",
                "srq-pingpong", "--addr", Lab.HOST6, "-n", "50");
        assertPingpong(p, 50, Gids.IPV6);
        for (Job.Result side : new Job.Result[] {p.jrxe(), p.kernel()}) {
            assertThat(side.output().lines().filter(l -> l.contains("remote address:")).count()).as("%s", side).isEqualTo(16);
        }
    }
}
