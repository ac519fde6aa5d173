package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import org.junit.jupiter.api.Test;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What makes UC unreliable: no acknowledgements, and a lost packet loses its whole message (IBTA 9.8.3). */
class UcTransportTest {
    @Test
    void noAcknowledgementEverCrossesTheWire() throws Exception {
        try (SimPair p = new SimPair(1, QpType.UC, io.jrxe.verbs.Mtu.MTU_1024, 1 << 20)) {
            Wire wire = Wire.on(p);
            fill(p.a.memory, 0, 8000, 1);
            for (int i = 0; i < 4; i++) {
                p.b.qp.postRecv(recv(p.b, 100_000 + i * 10_000L, 9000, i));
            }
            SendWr chain = id(wr(p.a, WrOpcode.SEND, 0, 3000), 1);
            chain.next(id(wr(p.a, WrOpcode.SEND_WITH_IMM, 0, 10), 2))
                    .next().next(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 5000, p.b, 500_000), 3))
                    .next().next(id(rdma(p.a, WrOpcode.RDMA_WRITE_WITH_IMM, 0, 2048, p.b, 600_000), 4));
            p.a.qp.postSend(chain);
            p.awaitCompletions(4, 3, 10 * MS);
            p.run(10 * MS);

            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertThat(wire.count(Wire.fromSide(p.b))).as("packets B sent").isZero();
            assertThat(wire.count(pk -> pk.opcode().operation() == Operation.ACKNOWLEDGE)).isZero();
            assertThat(wire.count(Wire.Packet::ackRequest)).as("UC packets asking for an ACK").isZero();
            assertThat(wire.packets()).allMatch(pk -> pk.opcode().name().startsWith("UC_"));
            assertSameBytes(p.b.memory, 500_000, p.a.memory, 0, 5000);
            assertSameBytes(p.b.memory, 600_000, p.a.memory, 0, 2048);
        }
    }

    @Test
    void aLostMiddlePacketLosesItsSendButNotTheNextOne() throws Exception {
        try (SimPair p = new SimPair(2, QpType.UC, io.jrxe.verbs.Mtu.MTU_1024, 1 << 20)) {
            Wire wire = Wire.on(p).drop(1, Wire.opcode(Opcode.UC_SEND_MIDDLE));
            fill(p.a.memory, 0, 3000, 2);
            fill(p.a.memory, 10_000, 2000, 3);
            p.b.qp.postRecv(recv(p.b, 100_000, 4096, 51).next(recv(p.b, 200_000, 4096, 52)));
            p.a.qp.postSend(id(wr(p.a, WrOpcode.SEND, 0, 3000), 1).next(id(wr(p.a, WrOpcode.SEND, 10_000, 2000), 2)));
            p.awaitCompletions(2, 1, 10 * MS);
            p.run(10 * MS);

            assertThat(wire.count(Wire.Packet::dropped)).isEqualTo(1);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status)
                    .containsExactly(WcStatus.SUCCESS, WcStatus.SUCCESS);
            assertThat(p.recvCompletions(p.b)).hasSize(1);
            WorkCompletion r = p.recvCompletions(p.b).getFirst();
            // The receive the broken message had started is not consumed: the next message lands in it.
            assertThat(r.wrId()).isEqualTo(51);
            assertThat(r.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(r.byteLen()).isEqualTo(2000);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 10_000, 2000);
            assertThat(p.counter(p.b, Counter.DROP_PSN_OUT_OF_WINDOW)).as("the rest of the broken message").isEqualTo(1);
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "lost {0}")
    @org.junit.jupiter.params.provider.EnumSource(value = Opcode.class, names = {"UC_SEND_FIRST", "UC_SEND_MIDDLE", "UC_SEND_LAST"})
    void whicheverPacketIsLostOnlyItsMessageIsLost(Opcode lost) throws Exception {
        try (SimPair p = new SimPair(6, QpType.UC, io.jrxe.verbs.Mtu.MTU_1024, 1 << 20)) {
            Wire.on(p).drop(1, Wire.opcode(lost));
            fill(p.a.memory, 0, 3000, 6);
            fill(p.a.memory, 10_000, 2500, 7);
            p.b.qp.postRecv(recv(p.b, 100_000, 4096, 51).next(recv(p.b, 200_000, 4096, 52)));
            p.a.qp.postSend(id(wr(p.a, WrOpcode.SEND, 0, 3000), 1).next(id(wr(p.a, WrOpcode.SEND, 10_000, 2500), 2)));
            p.awaitCompletions(2, 1, 10 * MS);
            p.run(10 * MS);
            assertThat(p.recvCompletions(p.b)).hasSize(1);
            WorkCompletion r = p.recvCompletions(p.b).getFirst();
            assertThat(r.wrId()).isEqualTo(51);
            assertThat(r.byteLen()).isEqualTo(2500);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 10_000, 2500);
        }
    }

    @Test
    void aLostMiddlePacketLosesItsWriteWithImmediate() throws Exception {
        try (SimPair p = new SimPair(3, QpType.UC, io.jrxe.verbs.Mtu.MTU_1024, 1 << 20)) {
            Wire.on(p).drop(1, Wire.opcode(Opcode.UC_RDMA_WRITE_MIDDLE));
            fill(p.a.memory, 0, 4000, 4);
            p.b.qp.postRecv(recv(p.b, 0, 0, 61).next(recv(p.b, 0, 0, 62)));
            SendWr first = id(rdma(p.a, WrOpcode.RDMA_WRITE_WITH_IMM, 0, 4000, p.b, 100_000), 1);
            first.immData = 1;
            SendWr second = id(rdma(p.a, WrOpcode.RDMA_WRITE_WITH_IMM, 0, 1500, p.b, 200_000), 2);
            second.immData = 2;
            p.a.qp.postSend(first.next(second));
            p.awaitCompletions(2, 1, 10 * MS);
            p.run(10 * MS);

            assertThat(p.recvCompletions(p.b)).hasSize(1);
            WorkCompletion r = p.recvCompletions(p.b).getFirst();
            assertThat(r.opcode()).isEqualTo(WcOpcode.RECV_RDMA_WITH_IMM);
            assertThat(r.immData()).isEqualTo(2);
            assertThat(r.wrId()).isEqualTo(61);
            assertThat(r.byteLen()).isEqualTo(1500);
            assertSameBytes(p.b.memory, 200_000, p.a.memory, 0, 1500);
        }
    }

    @Test
    void aSendWithNoReceivePostedIsDroppedSilently() throws Exception {
        try (SimPair p = new SimPair(4, QpType.UC, io.jrxe.verbs.Mtu.MTU_1024, 1 << 20)) {
            Wire wire = Wire.on(p);
            fill(p.a.memory, 0, 100, 5);
            p.a.qp.postSend(id(wr(p.a, WrOpcode.SEND, 0, 100), 1));
            p.awaitCompletions(1, 0, 10 * MS);
            p.run(10 * MS, () -> p.counter(p.b, Counter.DROP_NO_RESOURCES) > 0);
            assertThat(p.counter(p.b, Counter.DROP_NO_RESOURCES)).isEqualTo(1);
            assertThat(wire.count(Wire.fromSide(p.b))).as("no RNR NAK on UC").isZero();

            p.b.qp.postRecv(recv(p.b, 1000, 200, 9));
            p.a.qp.postSend(id(wr(p.a, WrOpcode.SEND, 0, 100), 2));
            p.awaitCompletions(2, 1, 10 * MS);
            assertThat(p.recvCompletions(p.b).getFirst().byteLen()).isEqualTo(100);
            assertSameBytes(p.b.memory, 1000, p.a.memory, 0, 100);
        }
    }

    @Test
    void readsAndAtomicsAreRefusedAtPostTime() throws Exception {
        try (SimPair p = new SimPair(5, QpType.UC, io.jrxe.verbs.Mtu.MTU_1024, 1 << 20)) {
            for (WrOpcode op : new WrOpcode[] {WrOpcode.RDMA_READ, WrOpcode.ATOMIC_CMP_AND_SWP, WrOpcode.ATOMIC_FETCH_AND_ADD,
                    WrOpcode.SEND_WITH_INV, WrOpcode.FLUSH, WrOpcode.ATOMIC_WRITE}) {
                assertThatThrownBy(() -> p.a.qp.postSend(rdma(p.a, op, 0, 8, p.b, 0)))
                        .isInstanceOf(VerbsException.class)
                        .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.EINVAL))
                        .hasMessageContaining(op.name());
            }
        }
    }
}
