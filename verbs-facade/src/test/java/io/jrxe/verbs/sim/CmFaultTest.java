package io.jrxe.verbs.sim;

import io.jrxe.rnic.cm.AcceptParams;
import io.jrxe.rnic.cm.CmConnection;
import io.jrxe.rnic.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.rnic.cm.CmState;
import io.jrxe.rnic.cm.ConnectParams;
import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.engine.MadDropReason;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.cm.CmAttribute;
import io.jrxe.wire.cm.RejectReason;
import io.jrxe.wire.sim.LinkFaults;
import io.jrxe.wire.sim.PacketFilter;
import io.jrxe.wire.port.PeerAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

import static io.jrxe.verbs.sim.CmFixture.SECOND;
import static io.jrxe.verbs.sim.CmFixture.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CM on a faulty network: lost and duplicated messages, a vanished peer, seeded fault runs. On the shared-memory
 * wire they run in real time, with the devices' own {@code --faults} where the simulated network's links do them
 * ({@link CmFixture#faults}), and the MRA's 34 seconds are waited out.
 */
class CmFaultTest {
    /**
     * The seeded fault runs on the shared-memory wire, where each lost message costs its real timeout (about a third of
     * a second) and 200 runs would take minutes.
     */
    private static final int SHM_SEEDED_RUNS = 30;

    /** The CM attribute of a RoCE packet that carries a MAD (BTH 12 + DETH 8, attribute ID at MAD byte 16), or null. */
    static CmAttribute attributeOf(byte[] roce) {
        boolean toQp1 = roce.length >= 20 + 256 && (roce[0] & 0xFF) == 0x64 && roce[5] == 0 && roce[6] == 0 && roce[7] == 1;
        return toQp1 ? CmAttribute.of((roce[20 + 16] & 0xFF) << 8 | roce[20 + 17] & 0xFF) : null;
    }

    /**
     * Drops the first {@code n} MADs of one attribute and counts every one sent. It runs on whichever thread sends (on
     * the shared-memory wire, the test's or a NIC's standby thread), so what it counts is read under its lock.
     */
    static final class LoseFirst implements PacketFilter {
        private final CmAttribute victim;
        private int toLose;
        private final Map<CmAttribute, Integer> sent = new EnumMap<>(CmAttribute.class);

        LoseFirst(CmAttribute victim, int n) {
            this.victim = victim;
            this.toLose = n;
        }

        @Override
        public synchronized Verdict inspect(PeerAddress from, PeerAddress to, byte[] roce) {
            CmAttribute a = attributeOf(roce);
            if (a == null) {
                return Verdict.PASS;
            }
            sent.merge(a, 1, Integer::sum);
            if (a == victim && toLose > 0) {
                toLose--;
                return Verdict.DROP;
            }
            return Verdict.PASS;
        }

        /** How many of the victim's copies are still to be lost. */
        synchronized int toLose() {
            return toLose;
        }

        /** How many MADs of each attribute were sent, lost ones too. */
        synchronized Map<CmAttribute, Integer> sent() {
            return Map.copyOf(sent);
        }
    }

    /** Connect, accept, ESTABLISHED on both sides, disconnect, TIMEWAIT_EXIT on both sides. */
    private static void fullLifecycle(CmFixture f, CmFixture.Node a, CmFixture.Node b, ConnectParams params, Qp qb)
            throws Exception {
        CmConnection ca = a.cm().connect(params, a.queue);
        f.await(() -> b.last(CmEventType.CONNECT_REQUEST) != null, 60 * SECOND, "CONNECT_REQUEST");
        CmConnection cb = b.last(CmEventType.CONNECT_REQUEST).connection();
        b.cm().accept(cb, new AcceptParams(qb.qpNum()));
        f.await(() -> ca.state() == CmState.ESTABLISHED && cb.state() == CmState.ESTABLISHED, 60 * SECOND, "ESTABLISHED");
        a.cm().disconnect(ca, new byte[0]);
        f.await(() -> a.last(CmEventType.TIMEWAIT_EXIT) != null && b.last(CmEventType.TIMEWAIT_EXIT) != null,
                120 * SECOND, "TIMEWAIT_EXIT on both sides");
        assertThat(a.count(CmEventType.ESTABLISHED)).isEqualTo(1);
        assertThat(b.count(CmEventType.ESTABLISHED)).isEqualTo(1);
        assertThat(a.last(CmEventType.DISCONNECTED).status()).isZero();
        assertThat(a.cm().connectionCount() + b.cm().connectionCount()).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = CmAttribute.class, names = {"REQ", "REP", "RTU", "DREQ", "DREP"})
    void aLostMessageOfEachKindIsSentAgainAndTheConnectionLivesItsWholeLife(CmAttribute lost) throws Exception {
        try (CmFixture f = new CmFixture(10)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            LoseFirst filter = new LoseFirst(lost, 2);
            f.filter(filter);
            b.cm().listen(SERVICE, b.queue);
            Qp qa = a.newQp();
            Qp qb = b.newQp();
            fullLifecycle(f, a, b, new ConnectParams(b.address, SERVICE, qa.qpNum()).cmResponseTimeout(16), qb);
            assertThat(filter.toLose()).as("both copies of %s were lost", lost).isZero();
            int expected = switch (lost) {
                case REQ, REP, DREQ -> 3; // the message itself twice more
                // A lost RTU: the passive side sends its REP again and each REP again is answered with the RTU again.
                case RTU -> 3;
                // A lost DREP: the DREQ is sent again and each is answered with a DREP again.
                default -> 3;
            };
            Map<CmAttribute, Integer> sent = filter.sent();
            assertSent(sent, lost, expected);
            if (lost == CmAttribute.RTU) {
                assertSent(sent, CmAttribute.REP, 3);
            }
            if (lost == CmAttribute.DREP) {
                assertSent(sent, CmAttribute.DREQ, 3);
            }
        }
    }

    /**
     * How many copies of a message were sent: exactly {@code expected} in virtual time; at least that in real time, where
     * the two sides' timers race (a REQ resent while the REP it waits for is on its way makes one REP more).
     */
    private static void assertSent(Map<CmAttribute, Integer> sent, CmAttribute attribute, int expected) {
        if (FixtureWire.ON_SHM) {
            assertThat(sent.get(attribute)).as("%s sent: %s", attribute, sent).isGreaterThanOrEqualTo(expected);
        } else {
            assertThat(sent.get(attribute)).as("%s sent: %s", attribute, sent).isEqualTo(expected);
        }
    }

    @Test
    void everyMessageDuplicatedStillMakesOneConnectionWithOneEventPerStep() throws Exception {
        try (CmFixture f = new CmFixture(11)) {
            f.faults(LinkFaults.NONE.withDuplicate(1.0));
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            Qp qa = a.newQp();
            Qp qb = b.newQp();
            fullLifecycle(f, a, b, new ConnectParams(b.address, SERVICE, qa.qpNum()).cmResponseTimeout(16), qb);
            assertThat(b.count(CmEventType.CONNECT_REQUEST)).isEqualTo(1);
            assertThat(a.types()).containsExactly(CmEventType.ESTABLISHED, CmEventType.DISCONNECTED, CmEventType.TIMEWAIT_EXIT);
            long duplicates = a.gsi().dropped(MadDropReason.DUPLICATE) + b.gsi().dropped(MadDropReason.DUPLICATE);
            assertThat(duplicates).as("the second copies were recognised").isPositive();
            assertThat(a.counter(Counter.ENGINE_ERROR) + b.counter(Counter.ENGINE_ERROR)).isZero();
        }
    }

    @Test
    void aPeerThatNeverAnswersEndsInUnreachableAfterTheRetriesTheReqAskedFor() throws Exception {
        try (CmFixture f = new CmFixture(12)) {
            CmFixture.Node a = f.node("10.0.0.1");
            Qp qa = a.newQp();
            long start = f.nanoTime();
            // 4.096 µs × 2^16 + 2 × 4.096 µs × 2^13 = 335.5 ms per wait; 1 + 3 retries.
            long wait = (4096L << 16) + 2 * (4096L << 13);
            CmConnection ca = a.cm().connect(new ConnectParams(PeerAddress.of("10.0.0.9"), SERVICE, qa.qpNum())
                    .cmResponseTimeout(16).packetLifeTime(13).maxCmRetries(3), a.queue);
            f.await(() -> a.last(CmEventType.UNREACHABLE) != null, 60 * SECOND, "UNREACHABLE");
            long took = f.nanoTime() - start;
            if (FixtureWire.ON_SHM) {
                assertThat(took).as("real time bounds it from below only").isGreaterThanOrEqualTo(4 * wait);
            } else {
                assertThat(took).isBetween(4 * wait, 4 * wait + 1_000_000);
            }
            assertThat(a.last(CmEventType.UNREACHABLE).status()).isEqualTo(CmEvent.ETIMEDOUT);
            assertThat(a.gsi().sent()).as("REQ, 3 retries, then the REJ (timeout)").isEqualTo(5);
            assertThat(a.queuePair(qa).state()).isEqualTo(QpState.ERR);
            f.settle(60 * SECOND, () -> ca.state() == CmState.CLOSED);
            assertThat(ca.state()).isEqualTo(CmState.CLOSED);
            assertThat(a.cm().connectionCount()).isZero();
            assertThat(a.types()).containsExactly(CmEventType.UNREACHABLE);
        }
    }

    @Test
    void aPeerThatVanishesAfterEstablishmentEndsTheDisconnectInATimeout() throws Exception {
        try (CmFixture f = new CmFixture(13)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            Qp qa = a.newQp();
            Qp qb = b.newQp();
            CmConnection ca = a.cm().connect(new ConnectParams(b.address, SERVICE, qa.qpNum())
                    .cmResponseTimeout(16).maxCmRetries(2), a.queue);
            f.await(() -> b.last(CmEventType.CONNECT_REQUEST) != null, SECOND, "CONNECT_REQUEST");
            b.cm().accept(b.last(CmEventType.CONNECT_REQUEST).connection(), new AcceptParams(qb.qpNum()));
            f.await(() -> ca.state() == CmState.ESTABLISHED, SECOND, "ESTABLISHED");
            f.filter((from, to, roce) -> PacketFilter.Verdict.DROP); // B is gone
            a.cm().disconnect(ca, new byte[0]);
            f.await(() -> a.last(CmEventType.TIMEWAIT_EXIT) != null, 60 * SECOND, "TIMEWAIT_EXIT");
            assertThat(a.last(CmEventType.DISCONNECTED).status()).isEqualTo(CmEvent.ETIMEDOUT);
            assertThat(a.cm().connectionCount()).isZero();
        }
    }

    @Test
    void aRepThatComesAfterTheActiveSideGaveUpIsAnsweredWithItsRejAndThePassiveQpGoesToErr() throws Exception {
        try (CmFixture f = new CmFixture(14)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            Qp qa = a.newQp();
            Qp qb = b.newQp();
            LoseFirst filter = new LoseFirst(CmAttribute.REJ, 1); // the active side's first REJ (timeout) is lost
            f.filter(filter);
            CmConnection ca = a.cm().connect(new ConnectParams(b.address, SERVICE, qa.qpNum())
                    .cmResponseTimeout(16).maxCmRetries(1), a.queue);
            f.await(() -> b.last(CmEventType.CONNECT_REQUEST) != null, SECOND, "CONNECT_REQUEST");
            CmConnection cb = b.last(CmEventType.CONNECT_REQUEST).connection();
            // B's consumer does not answer: B sends an MRA (34 s), A waits that long, then gives up.
            f.await(() -> a.last(CmEventType.UNREACHABLE) != null, 60 * SECOND, "UNREACHABLE");
            assertThat(cb.state()).isEqualTo(CmState.MRA_REQ_SENT);
            assertThat(ca.state()).isEqualTo(CmState.TIMEWAIT);
            b.cm().accept(cb, new AcceptParams(qb.qpNum())); // too late
            f.await(() -> b.last(CmEventType.REJECTED) != null, SECOND, "REJECTED on the passive side");
            assertThat(b.last(CmEventType.REJECTED).status()).isEqualTo(RejectReason.TIMEOUT.code());
            assertThat(filter.sent().get(CmAttribute.REJ)).as("the REJ, then again for the late REP").isEqualTo(2);
            assertThat(b.queuePair(qb).state()).isEqualTo(QpState.ERR);
            f.settle(120 * SECOND, () -> a.cm().connectionCount() + b.cm().connectionCount() == 0);
            assertThat(a.cm().connectionCount() + b.cm().connectionCount()).isZero();
            assertThat(ca.state()).isEqualTo(CmState.CLOSED);
        }
    }

    /**
     * 200 seeded runs (on the shared-memory wire {@link #SHM_SEEDED_RUNS}) with loss 0.2, duplication 0.1 and
     * reordering 0.2 on every packet, and few CM retries (3) so that some attempts time out: each ends ESTABLISHED on
     * both sides with QPs that match and carry a SEND, or in a clean failure; after the disconnect and every timer,
     * neither CM keeps anything and every QP is in ERR.
     */
    @Test
    void seededFaultRunsAllEndEstablishedOrInACleanTimeoutAndLeaveNothingBehind() throws Exception {
        Map<String, Integer> outcomes = new TreeMap<>();
        long faultsDone = 0;
        int runs = FixtureWire.ON_SHM ? SHM_SEEDED_RUNS : 200;
        for (long seed = 1; seed <= runs; seed++) {
            try (CmFixture f = new CmFixture(seed)) {
                LinkFaults faults = LinkFaults.NONE.withLoss(0.2).withDuplicate(0.1).withReorder(0.2, 400_000_000L);
                f.faults(faults);
                CmFixture.Node a = f.node("10.0.0.1");
                CmFixture.Node b = f.node("10.0.0.2");
                b.cm().listen(SERVICE, b.queue);
                Qp qa = a.newQp();
                Qp qb = b.newQp();
                CmConnection ca = a.cm().connect(new ConnectParams(b.address, SERVICE, qa.qpNum())
                        .cmResponseTimeout(16).packetLifeTime(13).maxCmRetries(3), a.queue);
                String where = "seed " + seed;
                // B's consumer accepts every request as soon as it polls it, each with a QP of its own (a late
                // duplicate REQ that comes after the first attempt ended is a new request to B).
                java.util.List<Qp> bQps = new java.util.ArrayList<>();
                int[] served = {0};
                java.util.function.BooleanSupplier serve = () -> {
                    java.util.List<CmEvent> requests = b.events.stream()
                            .filter(e -> e.type() == CmEventType.CONNECT_REQUEST).toList();
                    for (; served[0] < requests.size(); served[0]++) {
                        try {
                            Qp q = served[0] == 0 ? qb : b.newQp();
                            bQps.add(q);
                            b.cm().accept(requests.get(served[0]).connection(), new AcceptParams(q.qpNum()));
                        } catch (Exception e) {
                            throw new AssertionError(where + ": accept refused", e);
                        }
                    }
                    return false;
                };
                f.runUntil(() -> serve.getAsBoolean() || ca.state() == CmState.ESTABLISHED
                        || ca.state() == CmState.CLOSED || ca.state() == CmState.TIMEWAIT, 300 * SECOND);
                String outcome;
                if (ca.state() == CmState.ESTABLISHED) {
                    QueuePair pa = a.queuePair(qa);
                    QueuePair pb = b.queuePair(qb);
                    assertThat(pa.state()).as(where).isEqualTo(QpState.RTS);
                    assertThat(pb.destQpn()).as(where).isEqualTo(qa.qpNum());
                    assertThat(pa.destQpn()).as(where).isEqualTo(qb.qpNum());
                    assertThat(pa.sqPsn()).as(where).isEqualTo(pb.rqPsn());
                    assertThat(pb.sqPsn()).as(where).isEqualTo(pa.rqPsn());
                    outcome = "established";
                    // The SEND checks the QPs the CM made, not RC's retries: it crosses a clean network.
                    f.suspendFaults(true);
                    WcStatus sent = pb.state() == QpState.RTS ? sendOne(f, a, b, qa, qb) : null;
                    f.suspendFaults(false);
                    if (sent != WcStatus.SUCCESS) {
                        // Every RTU was lost: the passive side gave up (its QP in ERR), which is why the SEND failed.
                        assertThat(b.types()).as(where).containsAnyOf(CmEventType.CONNECT_ERROR, CmEventType.REJECTED);
                        outcome = "established, then the passive side timed out waiting for the RTU";
                    }
                    if (ca.state() == CmState.ESTABLISHED) {
                        a.cm().disconnect(ca, new byte[0]);
                    }
                } else {
                    f.runUntil(() -> serve.getAsBoolean() || f.quiet(), 600 * SECOND);
                    CmEvent failure = a.events.isEmpty() ? null : a.events.getLast();
                    assertThat(failure).as(where + " " + a.types()).isNotNull();
                    assertThat(failure.type()).as(where).isIn(CmEventType.UNREACHABLE, CmEventType.REJECTED);
                    assertThat(failure.type() == CmEventType.REJECTED ? failure.status() : CmEvent.ETIMEDOUT).as(where)
                            .isIn(CmEvent.ETIMEDOUT, RejectReason.TIMEOUT.code());
                    outcome = "timed out (" + failure.type() + ")";
                }
                f.runUntil(() -> serve.getAsBoolean() || f.quiet(), 600 * SECOND);
                for (int attempt = 0; attempt < 5; attempt++) {
                    for (CmConnection cb : b.cm().connections()) {
                        if (cb.state() == CmState.ESTABLISHED) {
                            // Every DREQ of A was lost: A gave up (ETIMEDOUT) and B never heard. B's own disconnect
                            // ends it; A, which keeps nothing now, answers its DREQ with a DREP all the same.
                            assertThat(a.last(CmEventType.DISCONNECTED).status()).as(where).isEqualTo(CmEvent.ETIMEDOUT);
                            b.cm().disconnect(cb, new byte[0]);
                            outcome = "established; A's DREQs all lost, B disconnected";
                        }
                    }
                    f.runUntil(() -> serve.getAsBoolean() || f.quiet(), 600 * SECOND);
                }
                assertThat(f.quiet()).as(where + ": every timer has fired, no packet is on its way").isTrue();
                assertThat(a.cm().connectionCount() + b.cm().connectionCount()).as(where + " " + a.cm().connections()
                        + b.cm().connections()).isZero();
                assertThat(a.queuePair(qa).state()).as(where).isEqualTo(QpState.ERR);
                for (Qp q : bQps) {
                    assertThat(b.queuePair(q).state()).as(where + " " + b.types()).isEqualTo(QpState.ERR);
                }
                assertThat(a.counter(Counter.ENGINE_ERROR) + b.counter(Counter.ENGINE_ERROR)).as(where).isZero();
                outcomes.merge(outcome, 1, Integer::sum);
                faultsDone += f.faultsDone();
            }
        }
        System.out.println("CM seeded fault runs: " + outcomes + ", " + faultsDone + " packets lost, duplicated,"
                + " reordered or corrupted");
        assertThat(faultsDone).as("the faults were done").isGreaterThan(runs);
        assertThat(outcomes.get("established")).as(outcomes.toString()).isGreaterThan(runs / 2);
    }

    /** One SEND from A to B: the status of A's send completion (B's receive succeeded when A's did). */
    private static WcStatus sendOne(CmFixture f, CmFixture.Node a, CmFixture.Node b, Qp qa, Qp qb) throws Exception {
        RecvWr recv = new RecvWr(1);
        recv.wrId = 5;
        recv.sgl.add(b.memory.address(), 64, b.mr.lkey());
        qb.postRecv(recv);
        SendWr send = new SendWr(1);
        send.opcode = WrOpcode.SEND;
        send.flags = SendWr.SIGNALED;
        send.sgl.add(a.memory.address(), 32, a.mr.lkey());
        qa.postSend(send);
        WorkCompletion[] onA = CmConnectTest.polled(f, a, 1);
        if (onA[0].status() == WcStatus.SUCCESS) {
            assertThat(CmConnectTest.polled(f, b, 1)[0].status()).isEqualTo(WcStatus.SUCCESS);
        }
        return onA[0].status();
    }
}
