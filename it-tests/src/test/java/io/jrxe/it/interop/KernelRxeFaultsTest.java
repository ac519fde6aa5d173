package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Pair;
import io.jrxe.it.interop.Pairings.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jrxe.it.interop.Pairings.assertPingpong;
import static io.jrxe.it.interop.Pairings.pair;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults against the real peer: the guest's program killed in the middle of a transfer, a lossy
 * guest, and SENDs that arrive before rxe0 has a receive for them.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KernelRxeFaultsTest {
    private static final String RXE0_RCVD_PKTS = "hw_counters/rcvd_pkts";
    /** jrxe's tools (as perftest) connect with timeout 14 (4.096 us x 2^14 = 67 ms) and retry_cnt 7: under a second. */
    private static final Duration RETRIES_RUN_OUT = Duration.ofSeconds(30);
    /**
     * How long jrxe's write-bw writes unless the kill ends it first. Far longer than the waits
     * before the kill (up to two minutes under a loaded TCG guest), so that the guest's server is
     * still there to be killed; the client never runs it out, it ends on the kill.
     */
    private static final int WRITING_SECONDS = 150;
    /** Runs of the lossy ping-pong before its last ACK's loss counts as a failure: 1 in 1,000 fails by chance. */
    private static final int LOSSY_RUNS = 3;

    /**
     * ib_write_bw serving in the guest is killed (SIGKILL) while jrxe's write-bw writes to it: rxe0
     * destroys the QP and answers nothing more, so jrxe's WRITEs go unacknowledged, are sent again
     * retry_cnt (7) times after each timeout, and complete with RETRY_EXC_ERR. jrxe's tool says so
     * and exits non-zero within a bounded time; its counters show the one error and at least the 7
     * retries: the last 7 are the run of retries that nothing answered, and a retry made earlier
     * (after a packet lost before the kill) is counted too.
     */
    @Test
    void theGuestsProgramKilledMidTransferEndsJrxesWritesWithRetryExceeded(Lab lab) throws Exception {
        int port = 18660;
        long before = lab.guestCounter(RXE0_RCVD_PKTS);
        try (Job server = lab.guest("ib_write_bw (server)", "ib_write_bw -d rxe0 -x " + lab.guestGid6() + " -F -D " + WRITING_SECONDS + " -p " + port,
                WRITING_SECONDS + 30)) {
            lab.awaitGuestListening(server, port);
            try (Job client = lab.jrxe("jrxe write-bw client", "write-bw", "--addr", Lab.HOST6, "-F", "-D", String.valueOf(WRITING_SECONDS), "--counters",
                    "-p", String.valueOf(port), Lab.GUEST4)) {
                client.awaitOutput("#bytes", Duration.ofSeconds(60));   // printed after the last sync: the WRITEs start
                lab.awaitGuestCounter(RXE0_RCVD_PKTS, before + 501, Duration.ofSeconds(60), client); // jrxe's data arrives
                long killing = System.nanoTime();
                Job.Result kill = lab.guestNow("pkill -9 -x ib_write_bw", 20);
                assertThat(kill.exitCode()).as("%s\nwhile the server was %s with output:\n%s\nand the client said:\n%s", kill,
                        server.isAlive() ? "running" : "gone", server.output(), client.output()).isZero();
                Job.Result jrxe = client.await(RETRIES_RUN_OUT);
                // with the guest command's round trip (about 1.5 s under TCG) in it
                System.out.printf("interop: jrxe write-bw failed %.1f s after the kill was sent%n", (System.nanoTime() - killing) / 1e9);
                assertThat(jrxe.exitCode()).as("%s", jrxe).isNotZero();
                assertThat(jrxe.output()).as("%s", jrxe)
                        .contains("Completion with error at send: status RETRY_EXC_ERR (12, transport retry counter exceeded)")
                        .containsPattern("counters of jrxe0:.* retry_exceeded_err=1\\b");
                Matcher retries = Pattern.compile("counters of jrxe0:.* completer_retry_err=(\\d+)\\b").matcher(jrxe.output());
                assertThat(retries.find()).as("completer_retry_err in %s", jrxe).isTrue();
                assertThat(Long.parseLong(retries.group(1))).as("retries made (retry_cnt 7 without an answer): %s", jrxe)
                        .isGreaterThanOrEqualTo(7);
            }
            assertThat(server.await(Pairings.RUN_LIMIT).exitCode()).as("ib_write_bw was killed").isEqualTo(137);
        }
    }

    /**
     * RC under 10% loss: netem drops a tenth of what the guest sends (rxe0's data when it requests,
     * its ACKs when jrxe does), and both programs still check every byte they receive (-c). The
     * host's kernel here has no netem, so the way from jrxe to the guest is not lossy. jrxe's ACK
     * timeout is about 1 s ({@link Pairings#JRXE_ACK_TIMEOUT}), as for the bandwidth pairings.
     * <p>
     * One loss no RC peer survives: rxe0's ACK of jrxe's last SEND. The guest's program has all it
     * waits for by then and exits, destroying its QP, so jrxe's retries meet no QP and its last SEND
     * fails with RETRY_EXC_ERR (two kernel rxe peers fail the same way). About one run in ten ends
     * so; such a run is started again, at most {@value #LOSSY_RUNS} times in all, and says why.
     */
    @ParameterizedTest(name = "{0} serves")
    @EnumSource(Server.class)
    void rcPingpongWhenTheGuestLoses10PercentOfItsPackets(Server server, Lab lab) throws Exception {
        try (GuestLoss loss = GuestLoss.of(lab, 10)) {
            Pair p = null;
            for (int run = 0; run < LOSSY_RUNS; run++) {
                int port = run == 0 ? 18662 + server.ordinal() : 18670 + 2 * run + server.ordinal();
                p = pair(lab, server, port, "ibv_rc_pingpong -d rxe0 -g " + lab.guestGid6() + " -n 50 -c",
                        "pingpong", "--addr", Lab.HOST6, "-n", "50", "-c", "--qp-timeout", Pairings.JRXE_ACK_TIMEOUT);
                if (!lostOnlyTheLastAck(p)) {
                    break;
                }
                System.out.printf("interop: run %d of %d lost rxe0's ACK of jrxe's last SEND after the guest's program had finished; "
                        + "no retry can reach a destroyed QP, so running again%n", run + 1, LOSSY_RUNS);
            }
            assertPingpong(p, 50, Gids.IPV6);
            loss.assertDropped();
        }
    }

    /**
     * RNR against rxe: ib_send_bw serves in the guest with a receive queue of depth 2 (-r 1; perftest
     * rounds up) while jrxe's send-bw keeps 128 SENDs of 64 KiB outstanding, so most of them reach
     * rxe0 before it has posted a receive for them. rxe0 answers RNR NAKs; jrxe waits the RNR timer
     * and sends again (rnr_retry 7: for ever), and the run completes on both sides.
     */
    @Test
    void sendsThatArriveBeforeTheGuestsReceivesMeetRnrNaksAndSucceed(Lab lab) throws Exception {
        Pair p = Pairings.bandwidth(lab, "send", Server.KERNEL, 18664, Gids.IPV6, 100, "-r 1", "--counters");
        assertThat(p.kernel().output()).as("%s", p.kernel()).containsPattern("RX depth\\s+:\\s+2\\b");
        Matcher rnr = Pattern.compile("counters of jrxe0:.* rcvd_rnr_err=(\\d+)").matcher(p.jrxe().output());
        assertThat(rnr.find() && Long.parseLong(rnr.group(1)) > 0).as("RNR NAKs received by jrxe: %s", p.jrxe()).isTrue();
    }

    /**
     * The guest's program did all 50 iterations and jrxe all but the completion of its last SEND,
     * which ran out of retries: the ACK for that SEND was lost and nothing was left to answer again.
     */
    private static boolean lostOnlyTheLastAck(Pair p) {
        return p.kernel().exitCode() == 0 && p.kernel().output().contains("50 iters in")
                && p.jrxe().output().contains("transport retry counter exceeded")
                && p.jrxe().output().contains("(after 49 sends and 50 receives;");
    }
}
