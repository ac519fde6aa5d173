package io.jrxe.verbs.sim;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Every basic RC operation between two simulated NICs, data checked byte for byte. */
class RcBasicsTest {
    private static final long MS = 1_000_000L;

    private static void fill(MemorySegment m, long off, int len, long seed) {
        Random r = new Random(seed);
        for (int i = 0; i < len; i++) {
            m.set(ValueLayout.JAVA_BYTE, off + i, (byte) r.nextInt());
        }
    }

    private static SendWr wr(SimPair.Side s, WrOpcode op, long localOff, int len) {
        SendWr wr = new SendWr(4);
        wr.opcode = op;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(s.memory.address() + localOff, len, s.mr.lkey());
        return wr;
    }

    private static RecvWr recv(SimPair.Side s, long off, int len, long id) {
        RecvWr r = new RecvWr(4);
        r.wrId = id;
        r.sgl.add(s.memory.address() + off, len, s.mr.lkey());
        return r;
    }

    @Test
    void sendOfSeveralPacketsLandsInTheReceiveBuffer() throws Exception {
        try (SimPair p = new SimPair(1, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            fill(p.a.memory, 0, 5000, 42);
            p.b.qp.postRecv(recv(p.b, 65536, 8192, 77));
            SendWr wr = wr(p.a, WrOpcode.SEND, 0, 5000);
            wr.wrId = 5;
            p.a.qp.postSend(wr);
            p.awaitCompletions(1, 1, 100 * MS);

            WorkCompletion s = p.sendCompletions(p.a).getFirst();
            assertThat(s.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(s.wrId()).isEqualTo(5);
            WorkCompletion r = p.recvCompletions(p.b).getFirst();
            assertThat(r.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(r.opcode()).isEqualTo(WcOpcode.RECV);
            assertThat(r.byteLen()).isEqualTo(5000);
            assertThat(r.wrId()).isEqualTo(77);
            assertThat(p.b.memory.asSlice(65536, 5000).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(p.a.memory.asSlice(0, 5000).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void writeReadAndAtomicsMoveTheRightBytes() throws Exception {
        try (SimPair p = new SimPair(2, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            fill(p.a.memory, 0, 10000, 7);
            SendWr write = wr(p.a, WrOpcode.RDMA_WRITE, 0, 10000);
            write.remoteAddr = p.b.memory.address() + 4096;
            write.rkey = p.b.mr.rkey();
            p.a.qp.postSend(write);
            p.awaitCompletions(1, 0, 100 * MS);
            assertThat(p.b.memory.asSlice(4096, 10000).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(p.a.memory.asSlice(0, 10000).toArray(ValueLayout.JAVA_BYTE));

            fill(p.b.memory, 200000, 7000, 9);
            SendWr read = wr(p.a, WrOpcode.RDMA_READ, 300000, 7000);
            read.remoteAddr = p.b.memory.address() + 200000;
            read.rkey = p.b.mr.rkey();
            p.a.qp.postSend(read);
            p.awaitCompletions(2, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a).get(1).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.sendCompletions(p.a).get(1).opcode()).isEqualTo(WcOpcode.RDMA_READ);
            assertThat(p.a.memory.asSlice(300000, 7000).toArray(ValueLayout.JAVA_BYTE))
                    .isEqualTo(p.b.memory.asSlice(200000, 7000).toArray(ValueLayout.JAVA_BYTE));

            p.b.memory.set(ValueLayout.JAVA_LONG, 512000, 100);
            SendWr fadd = wr(p.a, WrOpcode.ATOMIC_FETCH_AND_ADD, 600000, 8);
            fadd.remoteAddr = p.b.memory.address() + 512000;
            fadd.rkey = p.b.mr.rkey();
            fadd.compareAdd = 5;
            SendWr cas = wr(p.a, WrOpcode.ATOMIC_CMP_AND_SWP, 600008, 8);
            cas.remoteAddr = p.b.memory.address() + 512000;
            cas.rkey = p.b.mr.rkey();
            cas.compareAdd = 105;
            cas.swap = 1;
            fadd.next(cas);
            p.a.qp.postSend(fadd);
            p.awaitCompletions(4, 0, 100 * MS);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 600000)).isEqualTo(100);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 600008)).isEqualTo(105);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG, 512000)).isEqualTo(1);
        }
    }

    @Test
    void aWrongRkeyFailsWithRemoteAccessErrorAndFlushesTheRest() throws Exception {
        try (SimPair p = new SimPair(3, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            SendWr bad = wr(p.a, WrOpcode.RDMA_WRITE, 0, 100);
            bad.remoteAddr = p.b.memory.address();
            bad.rkey = p.b.mr.rkey() ^ 0x100;
            SendWr after = wr(p.a, WrOpcode.RDMA_WRITE, 0, 100);
            after.remoteAddr = p.b.memory.address();
            after.rkey = p.b.mr.rkey();
            after.wrId = 2;
            bad.next(after);
            p.a.qp.postSend(bad);
            p.awaitCompletions(2, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a).get(0).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.sendCompletions(p.a).get(1).status()).isEqualTo(WcStatus.WR_FLUSH_ERR);
            assertThat(p.a.qp.query().state()).isEqualTo(io.jrxe.verbs.QpState.ERR);
        }
    }
}
