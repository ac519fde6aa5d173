package io.jrxe.verbs.sim;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Mr;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static org.assertj.core.api.Assertions.assertThat;

/** Compare-and-swap and fetch-and-add: executed once at the responder, the original value returned. */
class AtomicsTest {
    private static SendWr cas(SimPair p, long localOff, long remoteOff, long compare, long swap) {
        SendWr w = rdma(p.a, WrOpcode.ATOMIC_CMP_AND_SWP, localOff, 8, p.b, remoteOff);
        w.compareAdd = compare;
        w.swap = swap;
        return w;
    }

    private static SendWr fetchAdd(SimPair p, long localOff, long remoteOff, long add) {
        SendWr w = rdma(p.a, WrOpcode.ATOMIC_FETCH_AND_ADD, localOff, 8, p.b, remoteOff);
        w.compareAdd = add;
        return w;
    }

    @Test
    void compareAndSwapSwapsOnlyWhenEqualAndReturnsTheOriginal() throws Exception {
        try (SimPair p = new SimPair(1, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            p.b.memory.set(ValueLayout.JAVA_LONG, 4096, 0x1111_2222_3333_4444L);
            p.a.qp.postSend(id(cas(p, 0, 4096, 0x1111_2222_3333_4444L, -5L), 1)
                    .next(id(cas(p, 8, 4096, 0x1111_2222_3333_4444L, 99L), 2)));
            p.awaitOn(p.a, 2, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::opcode).containsOnly(WcOpcode.COMP_SWAP);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::byteLen).containsOnly(8);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 0)).as("first: equal, swapped").isEqualTo(0x1111_2222_3333_4444L);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 8)).as("second: not equal any more").isEqualTo(-5L);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG, 4096)).isEqualTo(-5L);
        }
    }

    @Test
    void fetchAndAddAddsOnceEachAndWraps() throws Exception {
        try (SimPair p = new SimPair(2, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            p.b.memory.set(ValueLayout.JAVA_LONG, 8192, Long.MAX_VALUE);
            p.a.qp.postSend(fetchAdd(p, 0, 8192, 1).next(fetchAdd(p, 8, 8192, 41)));
            p.awaitOn(p.a, 2, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::opcode).containsOnly(WcOpcode.FETCH_ADD);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 0)).isEqualTo(Long.MAX_VALUE);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 8)).isEqualTo(Long.MIN_VALUE);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG, 8192)).isEqualTo(Long.MIN_VALUE + 41);
        }
    }

    @Test
    void aLostAtomicAcknowledgementIsReplayedNotReExecuted() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).timeout(8))) {
            Wire wire = Wire.on(p).drop(1, Wire.opcode(Opcode.RC_ATOMIC_ACKNOWLEDGE));
            p.b.memory.set(ValueLayout.JAVA_LONG, 0, 10);
            p.a.qp.postSend(fetchAdd(p, 64, 0, 5));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(wire.count(Wire.opcode(Opcode.RC_FETCH_ADD))).as("sent, then sent again after the timeout").isEqualTo(2);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 64)).as("the original value, replayed").isEqualTo(10);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG, 0)).as("added once (IBTA 9.4.5: atomics execute once)").isEqualTo(15);
        }
    }

    @Test
    void aMisalignedAtomicIsAnInvalidRequest() throws Exception {
        try (SimPair p = new SimPair(4, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            p.a.qp.postSend(fetchAdd(p, 0, 4, 1));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            // IBTA 9.4.5 and rxe (RESPST_ERR_MISALIGNED_ATOMIC): NAK invalid request.
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_INV_REQ_ERR);
            assertThat(p.a.qp.query().state()).isEqualTo(QpState.ERR);
        }
    }

    @Test
    void anMrWithoutRemoteAtomicRefusesIt() throws Exception {
        try (SimPair p = new SimPair(5, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mr plain = p.b.pd.regMr(p.b.memory.asSlice(65536, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            SendWr w = fetchAdd(p, 0, 65536, 1);
            w.rkey = plain.rkey();
            p.a.qp.postSend(w);
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }
}
