package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.RnrTimer;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.SECOND;
import static io.jrxe.verbs.sim.Ops.US;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/** Receiver not ready: RNR NAKs carry the responder's min_rnr_timer; rnr_retry bounds them, 7 means for ever. */
class RnrTest {
    private static boolean isRnrNak(Wire.Packet pk) {
        return pk.is(Opcode.RC_ACKNOWLEDGE) && AethSyndrome.isRnrNak(pk.syndrome());
    }

    /**
     * The responder NAKs until a receive comes, each NAK carrying its min_rnr_timer, and the requester waits that long
     * after each before it sends again. Real time bounds a wait from below only, and the NICs run on while the test
     * looks: there the counters are compared with the wire once the SEND is through and nothing NAKs any more.
     */
    @Test
    void rnrNaksCarryMinRnrTimerAndTheSendSucceedsOnceAReceiveIsPosted() throws Exception {
        int timerCode = 5; // 0.06 ms
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC).minRnrTimer(timerCode).rnrRetry(7))) {
            Wire wire = Wire.on(p);
            fill(p.a.memory, 0, 3000, 1);
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 3000));
            p.run(MS, () -> wire.count(RnrTest::isRnrNak) >= 5);

            List<Wire.Packet> naks = wire.matching(RnrTest::isRnrNak);
            assertThat(naks.size()).isGreaterThanOrEqualTo(5);
            assertThat(naks).allMatch(n -> AethSyndrome.value(n.syndrome()) == timerCode);
            assertThat(naks).allMatch(n -> n.psn() == p.config.psn);
            // Each retry waits the RNR timer after its NAK: the FIRST packets of the SEND are that far apart. In real
            // time a try's MIDDLE can draw its PSN sequence NAK after the next try began, which goes back at once:
            // there only the first resend is sure to follow an RNR NAK.
            List<Wire.Packet> firsts = wire.matching(Wire.opcode(Opcode.RC_SEND_FIRST));
            int timed = FixtureWire.ON_SHM ? 2 : firsts.size();
            for (int i = 1; i < timed; i++) {
                assertThat(firsts.get(i).time() - naks.get(i - 1).time()).isGreaterThanOrEqualTo(RnrTimer.nanos(timerCode));
            }
            assertThat(p.sendCompletions(p.a)).isEmpty();
            if (!FixtureWire.ON_SHM) { // virtual time stands still while the test looks: a NAK still on its way is not counted yet
                assertThat(p.counter(p.b, Counter.SEND_RNR_ERR)).isEqualTo(naks.size());
                long delivered = naks.stream().filter(n -> n.time() + 5_000 <= p.network.time().nanoTime()).count();
                assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isEqualTo(delivered);
            }

            p.b.qp.postRecv(recv(p.b, 100_000, 4096, 3));
            p.awaitCompletions(1, 1, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.recvCompletions(p.b).getFirst().byteLen()).isEqualTo(3000);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 3000);
            // The ACK of the SEND left after the last NAK, on the same way: the requester read every NAK.
            long nakCount = wire.count(RnrTest::isRnrNak);
            assertThat(p.counter(p.b, Counter.SEND_RNR_ERR)).isEqualTo(nakCount);
            assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isEqualTo(nakCount);
        }
    }

    @Test
    void rnrRetryExhaustedFailsWithRnrRetryExcErr() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC).minRnrTimer(1).rnrRetry(2))) {
            Wire wire = Wire.on(p);
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 100));
            p.awaitOn(p.a, 1, 0, SECOND);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.RNR_RETRY_EXC_ERR);
            assertThat(wire.count(Wire.opcode(Opcode.RC_SEND_ONLY))).as("the first try and rnr_retry retries").isEqualTo(3);
            assertThat(wire.count(RnrTest::isRnrNak)).isEqualTo(3);
            assertThat(p.counter(p.a, Counter.RETRY_RNR_EXCEEDED_ERR)).isEqualTo(1);
            assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isEqualTo(3);
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.ERR);
        }
    }

    /**
     * min_rnr_timer 0 is the longest wait, 655.36 ms: a minute of virtual time is ~90 RNR NAKs. In real time (the
     * shared-memory wire) the shortest, code 1 (10 us), until {@link #RNR_NAKS_IN_REAL_TIME} NAKs came: far more than
     * the 6 retries any other rnr_retry allows.
     */
    private static final int RNR_NAKS_IN_REAL_TIME = 100;

    /** Runs {@code p} while the responder NAKs: a minute in virtual time, or until it NAKed enough in real time. */
    private static void runRnrForEver(SimPair p, Wire wire) {
        if (FixtureWire.ON_SHM) {
            p.run(0, () -> wire.count(RnrTest::isRnrNak) >= RNR_NAKS_IN_REAL_TIME);
        } else {
            p.run(60 * SECOND);
        }
    }

    @Test
    void rnrRetrySevenRetriesForEver() throws Exception {
        int timerCode = FixtureWire.ON_SHM ? 1 : 0;
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).minRnrTimer(timerCode).rnrRetry(7).retryCnt(1))) {
            Wire wire = Wire.on(p);
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 100));
            runRnrForEver(p, wire);
            assertThat(p.sendCompletions(p.a)).isEmpty();
            if (FixtureWire.ON_SHM) {
                assertThat(wire.count(RnrTest::isRnrNak)).isGreaterThanOrEqualTo(RNR_NAKS_IN_REAL_TIME);
            } else {
                assertThat(wire.count(RnrTest::isRnrNak)).isBetween(85L, 95L);
            }
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.RTS);

            p.b.qp.postRecv(recv(p.b, 100_000, 4096, 3));
            p.awaitCompletions(1, 1, 2 * SECOND);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        }
    }

    /**
     * A SEND of several packets: every RNR cycle the packets after the FIRST arrive out of
     * sequence and draw a PSN sequence NAK. Those must not use up retry_cnt while rnr_retry is 7.
     */
    @Test
    void rnrRetrySevenRetriesForEverAMultiPacketSendToo() throws Exception {
        int timerCode = FixtureWire.ON_SHM ? 1 : 0;
        try (SimPair p = new SimPair(5, new SimPair.Config(QpType.RC).minRnrTimer(timerCode).rnrRetry(7).retryCnt(1))) {
            Wire wire = Wire.on(p);
            fill(p.a.memory, 0, 3000, 5);
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 3000));
            runRnrForEver(p, wire);
            assertThat(p.sendCompletions(p.a)).isEmpty();
            assertThat(wire.count(RnrTest::isRnrNak)).isGreaterThanOrEqualTo(FixtureWire.ON_SHM ? RNR_NAKS_IN_REAL_TIME : 85);
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.RTS);
            p.b.qp.postRecv(recv(p.b, 100_000, 4096, 3));
            p.awaitCompletions(1, 1, 2 * SECOND);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 3000);
        }
    }

    /** The responder's min_rnr_timer in the two-NAK cases, and the longer wait the second NAK asks for. */
    private static final int SHORTER = 14; // 1.28 ms
    private static final int LONGER = 16; // 2.56 ms

    /**
     * A pair whose responder NAKs with {@link #SHORTER}, A's SEND of 100 bytes posted, and the responder's first RNR
     * NAK lost on its way: the NAKs the case makes by hand ({@link #rnrNak}) stand for the responder's own.
     */
    private static Wire sendWhoseFirstRnrNakIsLost(SimPair p) throws Exception {
        Wire wire = Wire.on(p).drop(1, RnrTest::isRnrNak);
        p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 100));
        assertThat(p.runUntil(() -> wire.count(RnrTest::isRnrNak) == 1, MS)).isTrue();
        return wire;
    }

    /** An RNR NAK from B to A for the SEND's PSN, asking for {@code timerCode}'s wait. */
    private static void rnrNak(SimPair p, int timerCode) {
        Forge.inject(p, p.b, p.a, Forge.ack(p.a.qp.qpNum(), p.config.psn, AethSyndrome.rnrNak(timerCode)));
    }

    /**
     * Two RNR NAKs read before the requester runs again (one batch of datagrams from the socket):
     * the later one's wait wins, as rxe's completer re-arms its rnr_nak_timer. The timer set for the
     * first then fires before the QP may resume; it must wait again, not leave the requester parked
     * with no timer running, its NIC idle with work posted (a send-bw -D client that never ends). Here
     * the second NAK asks for the longer wait, at the same virtual instant. Real time cannot put both
     * NAKs in one read: there the resend comes no sooner than the first NAK's wait, and the SEND ends.
     */
    @Test
    void aLaterRnrNakReadBeforeTheRequesterRanPostponesTheResendAndStillLeadsToIt() throws Exception {
        try (SimPair p = new SimPair(6, new SimPair.Config(QpType.RC).minRnrTimer(SHORTER).rnrRetry(7))) {
            Wire wire = sendWhoseFirstRnrNakIsLost(p);

            long injected = p.nanoTime();
            rnrNak(p, SHORTER);
            rnrNak(p, LONGER);
            p.b.qp.postRecv(recv(p.b, 100_000, 4096, 6));
            p.awaitCompletions(1, 1, 10 * RnrTimer.nanos(LONGER));

            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            List<Wire.Packet> sends = wire.matching(Wire.opcode(Opcode.RC_SEND_ONLY));
            if (FixtureWire.ON_SHM) { // a resend before the receive was posted draws another NAK
                assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isGreaterThanOrEqualTo(2);
                assertThat(sends.size()).isGreaterThanOrEqualTo(2);
                assertThat(sends.get(1).time()).as("the resend waits at least the first NAK's time")
                        .isGreaterThanOrEqualTo(injected + RnrTimer.nanos(SHORTER));
            } else {
                assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isEqualTo(2);
                assertThat(sends).hasSize(2);
                assertThat(sends.get(1).time()).as("the resend waits the longer NAK's time")
                        .isGreaterThanOrEqualTo(injected + RnrTimer.nanos(LONGER));
            }
        }
    }

    /**
     * The second RNR NAK comes after the requester ran and went back to the NAKed PSN to wait: rxe's completer still
     * takes it (counts it, re-arms the timer), so the resend waits the later NAK's time here too. Taken for a response
     * to a PSN never sent, it would be dropped and the resend would come after the first NAK's wait. In real time the
     * requester may also have sent again before the second NAK came, which is then an ordinary RNR NAK: both count.
     */
    @Test
    void aLaterRnrNakAfterTheRequesterWentBackIsTakenAndItsWaitWins() throws Exception {
        try (SimPair p = new SimPair(7, new SimPair.Config(QpType.RC).minRnrTimer(SHORTER).rnrRetry(7))) {
            Wire wire = sendWhoseFirstRnrNakIsLost(p);

            rnrNak(p, SHORTER);
            p.run(100 * US, () -> p.counter(p.a, Counter.RCVD_RNR_ERR) == 1); // read, and the requester went back
            long second = p.nanoTime();
            rnrNak(p, LONGER);
            p.b.qp.postRecv(recv(p.b, 100_000, 4096, 7));
            p.awaitCompletions(1, 1, 10 * RnrTimer.nanos(LONGER));

            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isGreaterThanOrEqualTo(2);
            if (!FixtureWire.ON_SHM) {
                assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isEqualTo(2);
                assertThat(p.counter(p.a, Counter.DROP_GHOST_ACK)).isZero();
                List<Wire.Packet> sends = wire.matching(Wire.opcode(Opcode.RC_SEND_ONLY));
                assertThat(sends).hasSize(2);
                assertThat(sends.get(1).time()).as("the resend waits the later NAK's time")
                        .isGreaterThanOrEqualTo(second + RnrTimer.nanos(LONGER));
            }
        }
    }

    @Test
    void aWriteWithImmediateWaitsForAReceiveToo() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC).minRnrTimer(1))) {
            fill(p.a.memory, 0, 2500, 4);
            io.jrxe.verbs.SendWr w = Ops.rdma(p.a, WrOpcode.RDMA_WRITE_WITH_IMM, 0, 2500, p.b, 200_000);
            w.immData = 77;
            p.a.qp.postSend(w);
            p.run(MS, () -> p.counter(p.b, Counter.SEND_RNR_ERR) > 0);
            assertThat(p.counter(p.b, Counter.SEND_RNR_ERR)).isPositive();
            p.b.qp.postRecv(recv(p.b, 0, 0, 5));
            p.awaitCompletions(1, 1, 10 * MS);
            assertThat(p.recvCompletions(p.b).getFirst().immData()).isEqualTo(77);
            assertThat(p.recvCompletions(p.b).getFirst().byteLen()).isEqualTo(2500);
            assertSameBytes(p.b.memory, 200_000, p.a.memory, 0, 2500);
        }
    }
}
