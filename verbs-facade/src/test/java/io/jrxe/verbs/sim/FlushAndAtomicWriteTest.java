package io.jrxe.verbs.sim;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
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

/**
 * The memory placement extensions: FLUSH (needs FLUSH_GLOBAL on the target MR) and ATOMIC WRITE.
 * Both are answered, as by rxe, with a zero-length RDMA READ response, not an ACK.
 */
class FlushAndAtomicWriteTest {
    @Test
    void flushOfAnMrWithFlushGlobalSucceeds() throws Exception {
        try (SimPair p = new SimPair(1, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Wire wire = Wire.on(p);
            // jrxe's FLUSH work request names the range to flush by its SGL length (no local bytes move).
            p.a.qp.postSend(id(rdma(p.a, WrOpcode.FLUSH, 0, 4096, p.b, 8192), 3));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            WorkCompletion c = p.sendCompletions(p.a).getFirst();
            assertThat(c.status()).as("%s", c).isEqualTo(WcStatus.SUCCESS);
            assertThat(c.opcode()).isEqualTo(WcOpcode.FLUSH);
            assertThat(c.wrId()).isEqualTo(3);
            assertThat(c.byteLen()).as("the range, as rxe reports a FLUSH's").isEqualTo(4096);

            Wire.Packet request = wire.matching(Wire.opcode(Opcode.RC_FLUSH)).getFirst();
            assertThat(request.reth().virtualAddress()).isEqualTo(p.b.memory.address() + 8192);
            assertThat(request.reth().dmaLength()).isEqualTo(4096);
            assertThat(request.payloadLength()).isZero();
            Wire.Packet response = wire.matching(Wire.fromSide(p.b)).getFirst();
            assertThat(response.opcode()).as("rxe answers FLUSH with an RDMA READ response of length zero")
                    .isEqualTo(Opcode.RC_RDMA_READ_RESPONSE_ONLY);
            assertThat(response.payloadLength()).isZero();
            assertThat(response.psn()).isEqualTo(request.psn());
        }
    }

    @Test
    void flushToAQpThatAllowsNoFlushIsAnInvalidRequest() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).qpAccess(Access.REMOTE_WRITE | Access.REMOTE_READ))) {
            p.a.qp.postSend(rdma(p.a, WrOpcode.FLUSH, 0, 4096, p.b, 8192));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_INV_REQ_ERR);
        }
    }

    @Test
    void flushOfAnMrWithoutFlushGlobalIsARemoteAccessError() throws Exception {
        try (SimPair p = new SimPair(2, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Mr noFlush = p.b.pd.regMr(p.b.memory.asSlice(65536, 8192), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            SendWr w = rdma(p.a, WrOpcode.FLUSH, 0, 4096, p.b, 65536);
            w.rkey = noFlush.rkey();
            p.a.qp.postSend(w);
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void atomicWritePlacesEightBytesAndIsAnsweredLikeRxe() throws Exception {
        try (SimPair p = new SimPair(3, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            Wire wire = Wire.on(p);
            p.a.memory.set(ValueLayout.JAVA_LONG, 0, 0x0123_4567_89AB_CDEFL);
            p.a.qp.postSend(id(rdma(p.a, WrOpcode.ATOMIC_WRITE, 0, 8, p.b, 4096), 4));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            WorkCompletion c = p.sendCompletions(p.a).getFirst();
            assertThat(c.status()).as("%s", c).isEqualTo(WcStatus.SUCCESS);
            assertThat(c.opcode()).isEqualTo(WcOpcode.ATOMIC_WRITE);
            assertThat(c.byteLen()).as("the 8 bytes, as rxe reports an ATOMIC_WRITE's").isEqualTo(8);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG, 4096)).isEqualTo(0x0123_4567_89AB_CDEFL);
            Wire.Packet request = wire.matching(Wire.opcode(Opcode.RC_ATOMIC_WRITE)).getFirst();
            assertThat(request.payloadLength()).isEqualTo(8);
            Wire.Packet response = wire.matching(Wire.fromSide(p.b)).getFirst();
            assertThat(response.opcode()).isEqualTo(Opcode.RC_RDMA_READ_RESPONSE_ONLY);
            assertThat(response.payloadLength()).isZero();
        }
    }

    @Test
    void aLostFlushResponseIsAnsweredAgain() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC).timeout(8))) {
            Wire wire = Wire.on(p).drop(1, Wire.fromSide(p.b));
            p.a.qp.postSend(rdma(p.a, WrOpcode.FLUSH, 0, 64, p.b, 0));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(wire.count(Wire.opcode(Opcode.RC_FLUSH))).isEqualTo(2);
            assertThat(wire.matching(Wire.fromSide(p.b))).extracting(Wire.Packet::opcode)
                    .containsOnly(Opcode.RC_RDMA_READ_RESPONSE_ONLY);
        }
    }
}
