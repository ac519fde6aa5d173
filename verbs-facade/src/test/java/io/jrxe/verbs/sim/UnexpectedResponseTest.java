package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/** Responses the requester did not ask for: ghost ACKs are dropped, a response of the wrong kind is BAD_RESP_ERR. */
class UnexpectedResponseTest {
    static final int ACK = AethSyndrome.ack(AethSyndrome.CREDITS_INVALID);

    @Test
    void aGhostAckToAnIdleQpIsDroppedAndCounted() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC))) {
            Forge.inject(p, p.b, p.a, Forge.ack(p.a.qp.qpNum(), p.config.psn + 40, ACK));
            p.run(MS, () -> p.counter(p.a, Counter.DROP_GHOST_ACK) > 0);
            assertThat(p.counter(p.a, Counter.DROP_GHOST_ACK)).isEqualTo(1);
            assertThat(p.sendCompletions(p.a)).isEmpty();
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.RTS);

            // The QP is not disturbed: its first PSN is still the first PSN.
            fill(p.a.memory, 0, 2000, 1);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 2000, p.b, 8192));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, 8192, p.a.memory, 0, 2000);
        }
    }

    @Test
    void aGhostAckBeyondWhatWasSentCompletesNothing() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC).timeout(12))) {
            Wire wire = Wire.on(p).drop(1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3000, p.b, 8192)); // PSNs p..p+2
            p.run(20_000);
            Forge.inject(p, p.b, p.a, Forge.ack(p.a.qp.qpNum(), p.config.psn + 10, ACK));
            p.run(MS, () -> p.counter(p.a, Counter.DROP_GHOST_ACK) > 0);
            assertThat(p.counter(p.a, Counter.DROP_GHOST_ACK)).isEqualTo(1);
            assertThat(p.sendCompletions(p.a)).as("a ghost ACK acknowledges nothing").isEmpty();

            // The real ACK of the retransmission completes it.
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(wire.count(Wire.fromSide(p.a))).isEqualTo(6);
        }
    }

    @Test
    void aReadResponseWhereAnAckWasExpectedIsABadResponse() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC))) {
            Wire.on(p).drop(1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.b.qp.postRecv(recv(p.b, 0, 1000, 1));
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 100));
            p.run(20_000);
            Forge.inject(p, p.b, p.a, Forge.readResponseOnly(p.a.qp.qpNum(), p.config.psn, 100));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            // IBTA: an unexpected response opcode is a bad response (rxe reports IB_WC_FATAL_ERR for this one).
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.BAD_RESP_ERR);
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.ERR);
        }
    }

    @Test
    void anAtomicAcknowledgeForAWriteIsABadResponse() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC))) {
            Wire.on(p).drop(1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 0));
            p.run(20_000);
            Forge.inject(p, p.b, p.a, Forge.atomicAck(p.a.qp.qpNum(), p.config.psn, 42));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.BAD_RESP_ERR);
        }
    }

    @Test
    void aReadResponseOfTheWrongLengthIsABadResponse() throws Exception {
        try (SimPair p = new SimPair(5, new SimPair.Config(QpType.RC))) {
            Wire.on(p).drop(1, Wire.opcode(Opcode.RC_RDMA_READ_RESPONSE_ONLY));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_READ, 0, 100, p.b, 0));
            p.run(20_000);
            Forge.inject(p, p.b, p.a, Forge.readResponseOnly(p.a.qp.qpNum(), p.config.psn, 96));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.BAD_RESP_ERR);
        }
    }

    @Test
    void aNakWithAReservedCodeIsARemoteOperationalError() throws Exception {
        try (SimPair p = new SimPair(6, new SimPair.Config(QpType.RC))) {
            Wire.on(p).drop(1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 0));
            p.run(20_000);
            int reservedNak = AethSyndrome.TYPE_NAK << 5 | 0x1F; // NAK codes 5 to 31 are reserved
            Forge.inject(p, p.b, p.a, Forge.ack(p.a.qp.qpNum(), p.config.psn, reservedNak));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).as("as rxe's completer").isEqualTo(WcStatus.REM_OP_ERR);
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.ERR);
        }
    }
}
