package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.chain;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Responses acknowledge everything before them (IBTA 9.7.5.1, rxe's check_psn completing the
 * older WQEs): when the ACK of a WRITE is lost, the READ response or atomic ACK that follows it
 * completes the WRITE, with no retransmission.
 */
class ImplicitAckTest {
    @Test
    void aReadResponseAcknowledgesTheWriteBeforeIt() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC))) {
            Wire wire = Wire.on(p).drop(1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            fill(p.a.memory, 0, 2048, 1);
            fill(p.b.memory, 100_000, 2048, 2);
            p.a.qp.postSend(chain(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 2048, p.b, 50_000), 1),
                    id(rdma(p.a, WrOpcode.RDMA_READ, 10_000, 2048, p.b, 100_000), 2)));
            p.awaitOn(p.a, 2, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(1L, 2L);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertSameBytes(p.a.memory, 10_000, p.b.memory, 100_000, 2048);
            assertThat(wire.count(Wire.fromSide(p.a))).as("nothing sent twice").isEqualTo(3);
            assertThat(p.counter(p.a, Counter.COMPLETER_RETRY_ERR)).isZero();
        }
    }

    @Test
    void anAtomicAcknowledgeAcknowledgesTheSendBeforeIt() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC))) {
            Wire wire = Wire.on(p).drop(1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.b.qp.postRecv(Ops.recv(p.b, 0, 100, 9));
            p.b.memory.set(ValueLayout.JAVA_LONG, 4096, 3);
            var add = id(rdma(p.a, WrOpcode.ATOMIC_FETCH_AND_ADD, 8192, 8, p.b, 4096), 2);
            add.compareAdd = 1;
            p.a.qp.postSend(chain(id(Ops.wr(p.a, WrOpcode.SEND, 0, 100), 1), add));
            p.awaitOn(p.a, 2, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG, 4096)).isEqualTo(4);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 8192)).isEqualTo(3);
            assertThat(wire.count(Wire.fromSide(p.a))).as("nothing sent twice").isEqualTo(2);
        }
    }

    /**
     * An ACK whose PSN falls inside a READ's range (a responder re-acknowledging a duplicate sends
     * its last executed PSN) acknowledges nothing of the READ: only its responses do. Here the
     * READ's responses are lost once; the READ must still be retried and complete.
     */
    @Test
    void anAckInsideAReadsRangeAcknowledgesNothingOfIt() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC).timeout(8))) {
            int first = p.config.psn;
            Wire wire = Wire.on(p).drop(4, pk -> pk.from(p.b) && pk.opcode().name().contains("READ_RESPONSE"));
            fill(p.b.memory, 100_000, 4096, 3);
            p.a.qp.postSend(id(rdma(p.a, WrOpcode.RDMA_READ, 10_000, 4096, p.b, 100_000), 1)); // PSNs first..first+3
            p.run(20_000);
            Forge.inject(p, p.b, p.a, Forge.ack(p.a.qp.qpNum(), first + 3, UnexpectedResponseTest.ACK));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.a.memory, 10_000, p.b.memory, 100_000, 4096);
            assertThat(wire.count(Wire.opcode(Opcode.RC_RDMA_READ_REQUEST))).isEqualTo(2);
        }
    }

    /** Each WRITE is posted alone, so each asks for an ACK; the first two ACKs are lost and the third completes all. */
    @Test
    void aLaterAckAcknowledgesEveryWriteBeforeIt() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC))) {
            Wire wire = Wire.on(p).drop(2, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            for (int i = 1; i <= 3; i++) {
                p.a.qp.postSend(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 0), i));
                long sent = i;
                // Alone: the WRITE and its ACK are on the wire before the next is posted (a responder that meets
                // several requests at once acknowledges only the last).
                p.run(1_000, () -> wire.count(Wire.opcode(Opcode.RC_ACKNOWLEDGE)) >= sent);
            }
            p.awaitOn(p.a, 3, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(1L, 2L, 3L);
            assertThat(wire.packets()).filteredOn(Wire.fromSide(p.a)).hasSize(3).allMatch(Wire.Packet::ackRequest);
            assertThat(wire.count(Wire.opcode(Opcode.RC_ACKNOWLEDGE))).isEqualTo(3);
        }
    }

    /**
     * WRITEs posted together: a message that another follows at once does not ask for an ACK (the
     * last one does), so one ACK completes all three, in order.
     */
    @Test
    void messagesPostedTogetherAskForOneAck() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC))) {
            Wire wire = Wire.on(p);
            p.a.qp.postSend(chain(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 0), 1),
                    id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 0), 2), id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 0), 3)));
            p.awaitOn(p.a, 3, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(1L, 2L, 3L);
            assertThat(wire.packets()).filteredOn(Wire.fromSide(p.a)).extracting(Wire.Packet::ackRequest)
                    .containsExactly(false, false, true);
            assertThat(wire.count(Wire.opcode(Opcode.RC_ACKNOWLEDGE))).isEqualTo(1);
        }
    }
}
