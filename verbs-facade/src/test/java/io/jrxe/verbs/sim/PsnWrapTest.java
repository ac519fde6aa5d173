package io.jrxe.verbs.sim;

import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.List;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.chain;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/** PSNs are counted modulo 2^24: messages, retries and read responses across the wrap. */
class PsnWrapTest {
    static final int MTU = 1024;
    static final int START = 0xFFFFF8;

    @Test
    void everyOperationWorksAcrossTheWrap() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC).psn(START))) {
            Wire wire = Wire.on(p);
            fill(p.a.memory, 0, 20 * MTU, 1);
            fill(p.b.memory, 200_000, 20 * MTU, 2);
            p.b.memory.set(ValueLayout.JAVA_LONG, 500_000, 7);
            p.b.qp.postRecv(recv(p.b, 300_000, 20 * MTU, 1));
            p.a.qp.postSend(chain(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 6 * MTU, p.b, 100_000),
                    rdma(p.a, WrOpcode.RDMA_READ, 100_000, 12 * MTU, p.b, 200_000),
                    wr(p.a, WrOpcode.SEND, 0, 5 * MTU),
                    rdma(p.a, WrOpcode.ATOMIC_FETCH_AND_ADD, 400_000, 8, p.b, 500_000)));
            p.awaitCompletions(4, 1, 100 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 6 * MTU);
            assertSameBytes(p.a.memory, 100_000, p.b.memory, 200_000, 12 * MTU);
            assertSameBytes(p.b.memory, 300_000, p.a.memory, 0, 5 * MTU);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 400_000)).isEqualTo(7);
            // The READ's request takes PSN 0xFFFFFE and its 12 responses run through the wrap.
            List<Integer> responses = wire.matching(pk -> pk.from(p.b) && pk.opcode().name().contains("READ_RESPONSE"))
                    .stream().map(Wire.Packet::psn).toList();
            assertThat(responses).containsExactly(0xFFFFFE, 0xFFFFFF, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
            int atomicPsn = wire.matching(Wire.opcode(Opcode.RC_FETCH_ADD)).getFirst().psn();
            assertThat(atomicPsn).isEqualTo((START + 6 + 12 + 5) & 0xFFFFFF);
        }
    }

    @Test
    void goBackNAcrossTheWrap() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC).psn(START))) {
            // Lose the packet at PSN 1 of a WRITE running from 0xFFFFF8 to 0x000003, and a READ response after it.
            Wire wire = Wire.on(p).drop(1, pk -> pk.from(p.a) && pk.psn() == 1)
                    .drop(1, pk -> pk.from(p.b) && pk.is(Opcode.RC_RDMA_READ_RESPONSE_MIDDLE) && pk.psn() == 6);
            fill(p.a.memory, 0, 12 * MTU, 3);
            fill(p.b.memory, 200_000, 8 * MTU, 4);
            p.a.qp.postSend(chain(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 12 * MTU, p.b, 100_000),
                    rdma(p.a, WrOpcode.RDMA_READ, 100_000, 8 * MTU, p.b, 200_000)));
            p.awaitOn(p.a, 2, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 12 * MTU);
            assertSameBytes(p.a.memory, 100_000, p.b.memory, 200_000, 8 * MTU);
            assertThat(wire.count(Wire.Packet::dropped)).isEqualTo(2);
        }
    }
}
