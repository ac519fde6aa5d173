package io.jrxe.verbs.sim;

import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.Set;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static org.assertj.core.api.Assertions.assertThat;

/** max_rd_atomic: the requester never has more READs and atomics outstanding than the QP allows. */
class ReadAtomicLimitTest {
    @ParameterizedTest(name = "max_rd_atomic {0}")
    @ValueSource(ints = {1, 2, 4})
    void outstandingReadsAndAtomicsStayWithinMaxRdAtomic(int limit) throws Exception {
        try (SimPair p = new SimPair(limit, new SimPair.Config(QpType.RC).maxRdAtomic(limit))) {
            Wire wire = Wire.on(p);
            fill(p.b.memory, 0, 64 * 1024, 1);
            SendWr[] wrs = new SendWr[12];
            for (int i = 0; i < wrs.length; i++) {
                wrs[i] = i % 3 == 2 ? rdma(p.a, WrOpcode.ATOMIC_FETCH_AND_ADD, 900_000 + 8L * i, 8, p.b, 800_000)
                        : rdma(p.a, WrOpcode.RDMA_READ, 4096L * i, 3000, p.b, 4096L * i);
                id(wrs[i], i);
            }
            p.a.qp.postSend(Ops.chain(wrs));
            p.awaitOn(p.a, wrs.length, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);

            Set<Integer> outstanding = new HashSet<>();
            int most = 0;
            for (Wire.Packet pk : wire.packets()) {
                if (pk.from(p.a) && (pk.is(Opcode.RC_RDMA_READ_REQUEST) || pk.is(Opcode.RC_FETCH_ADD))) {
                    outstanding.add(pk.psn());
                    most = Math.max(most, outstanding.size());
                } else if (pk.is(Opcode.RC_RDMA_READ_RESPONSE_LAST) || pk.is(Opcode.RC_RDMA_READ_RESPONSE_ONLY)) {
                    outstanding.remove(pk.psn() - 2); // 3000 bytes: 3 responses, the request had the first PSN
                    outstanding.remove(pk.psn());
                } else if (pk.is(Opcode.RC_ATOMIC_ACKNOWLEDGE)) {
                    outstanding.remove(pk.psn());
                }
            }
            assertThat(most).isEqualTo(limit);
            for (int i = 0; i < wrs.length; i++) {
                if (i % 3 != 2) {
                    assertSameBytes(p.a.memory, 4096L * i, p.b.memory, 4096L * i, 3000);
                }
            }
        }
    }
}
