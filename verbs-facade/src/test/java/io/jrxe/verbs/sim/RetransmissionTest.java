package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.psn.Psn;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.SECOND;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.rdma;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Go-back-N: a PSN sequence error NAK resends a WRITE from the lost packet, an implied NAK (a
 * READ response beyond the expected PSN) resumes a READ in the middle, and retry_cnt bounds both.
 */
class RetransmissionTest {
    static final int MTU = 1024;

    private static boolean isReadRequest(Wire.Packet pk) {
        return pk.is(Opcode.RC_RDMA_READ_REQUEST);
    }

    private static boolean isReadResponse(Wire.Packet pk) {
        return pk.opcode() != null && pk.opcode().operation() == Operation.RDMA_READ_RESPONSE;
    }

    @Test
    void aWriteThatLostItsThirdPacketIsResentFromThere() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC))) {
            int first = p.config.psn;
            Wire wire = Wire.on(p).drop(1, pk -> pk.from(p.a) && pk.psn() == Psn.add(first, 2));
            fill(p.a.memory, 0, 8 * MTU, 1);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 8 * MTU, p.b, 100_000));
            p.awaitOn(p.a, 1, 0, 100 * MS);

            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 8 * MTU);
            List<Integer> sent = wire.matching(Wire.fromSide(p.a)).stream().map(Wire.Packet::psn).toList();
            // p..p+7 once, then from the lost one again: p+2..p+7 (not the two before it).
            assertThat(sent).containsExactly(first, first + 1, first + 2, first + 3, first + 4, first + 5, first + 6, first + 7,
                    first + 2, first + 3, first + 4, first + 5, first + 6, first + 7);
            Wire.Packet nak = wire.matching(Wire.fromSide(p.b)).getFirst();
            assertThat(nak.syndrome()).isEqualTo(AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR));
            assertThat(nak.psn()).as("the NAK names the PSN expected").isEqualTo(first + 2);
            assertThat(wire.count(pk -> pk.from(p.b) && AethSyndrome.isNak(pk.syndrome()))).as("one NAK per gap").isEqualTo(1);

            assertThat(p.counter(p.b, Counter.OUT_OF_SEQ_REQUEST)).as("p+3..p+7 arrived out of sequence").isEqualTo(5);
            assertThat(p.counter(p.b, Counter.DUPLICATE_REQUEST)).isZero();
            assertThat(p.counter(p.a, Counter.RCVD_SEQ_ERR)).isEqualTo(1);
            assertThat(p.counter(p.a, Counter.COMPLETER_RETRY_ERR)).isEqualTo(1);
        }
    }

    /**
     * A local operation (here LOCAL_INV) between two WRITEs runs once, when the requester reaches it: a
     * go-back-N rewind to a WRITE before it must step over it, not send it (it has no packets) nor run it
     * again. The send queue then completes all three, in order. Found by `soak --with mw` under loss.
     */
    @Test
    void aRewindStepsOverALocalOperationThatAlreadyRan() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC))) {
            int first = p.config.psn;
            Wire wire = Wire.on(p).drop(1, pk -> pk.from(p.a) && pk.psn() == Psn.add(first, 1));
            io.jrxe.verbs.Mr local = p.a.pd.regMr(p.a.memory.asSlice(512 * 1024, 4096), io.jrxe.verbs.Access.LOCAL_WRITE);
            fill(p.a.memory, 0, 8 * MTU, 2);
            var inv = new io.jrxe.verbs.SendWr(1);
            inv.opcode = WrOpcode.LOCAL_INV;
            inv.flags = io.jrxe.verbs.SendWr.SIGNALED;
            inv.invalidateRkey = local.lkey();
            p.a.qp.postSend(Ops.chain(Ops.id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 4 * MTU, p.b, 100_000), 1), Ops.id(inv, 2),
                    Ops.id(rdma(p.a, WrOpcode.RDMA_WRITE, 4 * MTU, 4 * MTU, p.b, 100_000 + 4 * MTU), 3)));
            p.awaitOn(p.a, 3, 0, 100 * MS);

            assertThat(p.sendCompletions(p.a)).extracting(io.jrxe.verbs.WorkCompletion::wrId).containsExactly(1L, 2L, 3L);
            assertThat(p.sendCompletions(p.a)).extracting(io.jrxe.verbs.WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 8 * MTU);
            assertThat(wire.count(pk -> pk.from(p.a) && pk.psn() == Psn.add(first, 1))).as("the lost packet, then its resend")
                    .isEqualTo(2);
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.RTS);
            assertThat(p.counter(p.a, Counter.ENGINE_ERROR)).isZero();
        }
    }

    /** The receiving side of go-back-N: a SEND or a WRITE with immediate completes once, whole, after a loss. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}, losing PSN +{1}")
    @org.junit.jupiter.params.provider.CsvSource({"SEND,0", "SEND,2", "SEND,7", "RDMA_WRITE_WITH_IMM,0", "RDMA_WRITE_WITH_IMM,4",
        "RDMA_WRITE_WITH_IMM,7"})
    void aMessageThatLostAPacketCompletesOnceAtTheReceiver(WrOpcode op, int lostAt) throws Exception {
        try (SimPair p = new SimPair(5, new SimPair.Config(QpType.RC).timeout(8))) {
            int first = p.config.psn;
            Wire.on(p).drop(1, pk -> pk.from(p.a) && pk.psn() == Psn.add(first, lostAt));
            fill(p.a.memory, 0, 8 * MTU, 5);
            p.b.qp.postRecv(Ops.chain(Ops.recv(p.b, 100_000, 8 * MTU, 61), Ops.recv(p.b, 200_000, 8 * MTU, 62)));
            var w = op == WrOpcode.SEND ? Ops.wr(p.a, op, 0, 8 * MTU) : rdma(p.a, op, 0, 8 * MTU, p.b, 100_000);
            w.immData = 99;
            p.a.qp.postSend(w);
            p.awaitCompletions(1, 1, 100 * MS);
            p.run(100 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.recvCompletions(p.b)).hasSize(1);
            assertThat(p.recvCompletions(p.b).getFirst().wrId()).isEqualTo(61);
            assertThat(p.recvCompletions(p.b).getFirst().byteLen()).isEqualTo(8 * MTU);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 8 * MTU);
        }
    }

    @Test
    void aLostAckMakesTheResponderSeeDuplicatesAndAcknowledgeThemAgain() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC).timeout(8))) {
            Wire wire = Wire.on(p).drop(1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            fill(p.a.memory, 0, 3 * MTU, 2);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3 * MTU, p.b, 100_000));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            // The ACK of the first duplicate completes the WRITE; the responder may still be reading the others.
            p.run(MS, () -> p.counter(p.b, Counter.DUPLICATE_REQUEST) >= 3);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(wire.count(Wire.fromSide(p.a))).isEqualTo(6);
            assertThat(p.counter(p.b, Counter.DUPLICATE_REQUEST)).isEqualTo(3);
            assertThat(p.counter(p.b, Counter.OUT_OF_SEQ_REQUEST)).isZero();
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 3 * MTU);
        }
    }

    /**
     * A READ of 20 packets loses its third response once. The 17 responses after the gap are
     * an implied NAK, but one retry is enough: the READ is asked for again from the lost PSN,
     * its RETH starting 2 MTUs in with the rest of the length, and completes with retry_cnt 1.
     */
    @Test
    void aReadThatLostAMiddleResponseResumesFromIt() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).retryCnt(1).timeout(8))) {
            int first = p.config.psn;
            Wire wire = Wire.on(p).drop(1, pk -> isReadResponse(pk) && pk.psn() == Psn.add(first, 2));
            fill(p.b.memory, 100_000, 20 * MTU, 3);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_READ, 0, 20 * MTU, p.b, 100_000));
            p.awaitOn(p.a, 1, 0, SECOND);

            assertThat(p.sendCompletions(p.a).getFirst().status()).as("%s", p.sendCompletions(p.a))
                    .isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.a.memory, 0, p.b.memory, 100_000, 20 * MTU);
            List<Wire.Packet> requests = wire.matching(RetransmissionTest::isReadRequest);
            assertThat(requests).hasSize(2);
            Wire.Packet again = requests.get(1);
            assertThat(again.psn()).isEqualTo(first + 2);
            assertThat(again.reth().virtualAddress()).isEqualTo(p.b.memory.address() + 100_000 + 2 * MTU);
            assertThat(again.reth().dmaLength()).isEqualTo(18L * MTU);
            assertThat(again.reth().rkey()).isEqualTo(p.b.mr.rkey());
            // The responder answers from the resume point, starting with a FIRST (the first answer's last responses
            // may still be on their way when the request comes again).
            List<Wire.Packet> responses = wire.matching(RetransmissionTest::isReadResponse);
            assertThat(responses).as("20 responses, then 18 from the resume point").hasSize(38);
            List<Wire.Packet> firsts = responses.stream().filter(pk -> pk.is(Opcode.RC_RDMA_READ_RESPONSE_FIRST)).toList();
            assertThat(firsts).extracting(Wire.Packet::psn).containsExactly(first, first + 2);
            assertThat(firsts.get(1).time()).isGreaterThan(again.time());
            assertThat(p.counter(p.a, Counter.COMPLETER_RETRY_ERR)).isEqualTo(1);
            assertThat(p.counter(p.b, Counter.DUPLICATE_REQUEST)).isEqualTo(1);
        }
    }

    /**
     * A NAK whose PSN lies inside a READ that still owes responses: here an RNR NAK for the READ's last PSN, as a
     * peer's {@code --faults rnr} rule makes of the ACK a responder sends again for a duplicate. The READ's third and
     * fourth responses are lost. The retry asks for the READ again from its third PSN, where its responses stopped:
     * asked from the NAK's PSN, its answer would start past the gap, and the READ would complete with a whole MTU
     * never written (what `udp-soak` with faults once reported as a wrong byte at 2048 of a 3,775-byte READ).
     */
    @Test
    void aNakInsideAReadResumesItWhereItsResponsesStopped() throws Exception {
        try (SimPair p = new SimPair(6, new SimPair.Config(QpType.RC).timeout(8))) {
            int first = p.config.psn;
            Wire wire = Wire.on(p).drop(2, pk -> isReadResponse(pk) && (pk.psn() == Psn.add(first, 2)
                    || pk.psn() == Psn.add(first, 3)));
            fill(p.b.memory, 100_000, 4 * MTU, 6);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_READ, 0, 4 * MTU, p.b, 100_000));
            p.run(20_000, () -> wire.count(RetransmissionTest::isReadResponse) >= 4);
            Forge.inject(p, p.b, p.a, Forge.ack(p.a.qp.qpNum(), Psn.add(first, 3), AethSyndrome.rnrNak(1)));
            p.awaitOn(p.a, 1, 0, SECOND);

            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.a.memory, 0, p.b.memory, 100_000, 4 * MTU);
            assertThat(wire.matching(RetransmissionTest::isReadRequest)).extracting(Wire.Packet::psn)
                    .containsExactly(first, Psn.add(first, 2));
            assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isEqualTo(1);
        }
    }

    /**
     * The same response lost every time: the READ is asked for retry_cnt + 1 times in all, then
     * fails with RETRY_EXC_ERR. As rxe counts: completer_retry_err once per retry actually made,
     * retry_exceeded_err once.
     */
    @Test
    void aReadResponseLostEveryTimeExhaustsTheRetries() throws Exception {
        int retryCnt = 3;
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC).retryCnt(retryCnt).timeout(8))) {
            int first = p.config.psn;
            Wire wire = Wire.on(p).drop(-1, pk -> isReadResponse(pk) && pk.psn() == Psn.add(first, 2));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_READ, 0, 8 * MTU, p.b, 100_000));
            p.awaitOn(p.a, 1, 0, 10 * SECOND);

            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.RETRY_EXC_ERR);
            assertThat(wire.count(RetransmissionTest::isReadRequest)).isEqualTo(retryCnt + 1);
            assertThat(p.counter(p.a, Counter.COMPLETER_RETRY_ERR)).isEqualTo(retryCnt);
            assertThat(p.counter(p.a, Counter.RETRY_EXCEEDED_ERR)).isEqualTo(1);
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.ERR);
        }
    }
}
