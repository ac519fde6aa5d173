package io.jrxe.verbs.sim;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.bytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** send_flags: SIGNALED (and sq_sig_all), FENCE, SOLICITED and INLINE. */
class SendFlagsTest {
    private static SendWr unsignaled(SendWr w) {
        w.flags &= ~SendWr.SIGNALED;
        return w;
    }

    @Test
    void onlySignaledSuccessesComplete() throws Exception {
        try (SimPair p = new SimPair(1, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            p.a.qp.postSend(id(unsignaled(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3000, p.b, 0)), 1)
                    .next(id(unsignaled(rdma(p.a, WrOpcode.RDMA_READ, 0, 100, p.b, 0)), 2))
                    .next().next(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 3)));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            p.run(10 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(3L);
        }
    }

    @Test
    void withSqSigAllEveryWorkRequestCompletes() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC).sqSigAll(true))) {
            p.a.qp.postSend(id(unsignaled(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3000, p.b, 0)), 1)
                    .next(id(unsignaled(rdma(p.a, WrOpcode.RDMA_READ, 0, 100, p.b, 0)), 2)));
            p.awaitOn(p.a, 2, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(1L, 2L);
        }
    }

    @Test
    void anUnsignaledFailureCompletesAnyway() throws Exception {
        try (SimPair p = new SimPair(3, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            SendWr bad = unsignaled(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0));
            bad.rkey ^= 0x55;
            p.a.qp.postSend(id(bad, 4));
            p.awaitOn(p.a, 1, 0, 10 * MS);
            // IBA 10.7.3.1: a completion error always generates a work completion.
            assertThat(p.sendCompletions(p.a).getFirst().wrId()).isEqualTo(4);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    /**
     * A READ of remote X, then a WRITE to X. The READ's response is lost once, so the READ is
     * answered again later, from memory as it is then. With FENCE the WRITE waits for the READ
     * to complete and the READ returns the old bytes; without it (the control) the WRITE gets
     * there first and the replayed READ returns the new ones.
     */
    @ParameterizedTest(name = "fenced {0}")
    @ValueSource(booleans = {true, false})
    void aFencedWriteWaitsForTheReadBeforeIt(boolean fenced) throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC).timeout(8))) {
            Wire wire = Wire.on(p).drop(1, Wire.opcode(Opcode.RC_RDMA_READ_RESPONSE_ONLY));
            fill(p.b.memory, 4096, 512, 40); // old
            fill(p.a.memory, 0, 512, 41); // new
            byte[] old = bytes(p.b.memory, 4096, 512);
            byte[] fresh = bytes(p.a.memory, 0, 512);
            SendWr read = id(rdma(p.a, WrOpcode.RDMA_READ, 100_000, 512, p.b, 4096), 1);
            SendWr write = id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 512, p.b, 4096), 2);
            if (fenced) {
                write.flags |= SendWr.FENCE;
            }
            p.a.qp.postSend(read.next(write));
            p.awaitOn(p.a, 2, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertThat(bytes(p.a.memory, 100_000, 512)).isEqualTo(fenced ? old : fresh);
            assertThat(bytes(p.b.memory, 4096, 512)).isEqualTo(fresh);
            if (fenced) {
                long writeSentAt = wire.matching(Wire.opcode(Opcode.RC_RDMA_WRITE_ONLY)).getFirst().time();
                long readAnsweredAt = wire.matching(pk -> pk.is(Opcode.RC_RDMA_READ_RESPONSE_ONLY) && !pk.dropped())
                        .getFirst().time();
                assertThat(writeSentAt).as("the fenced WRITE leaves after the READ's response").isGreaterThan(readAnsweredAt);
            }
        }
    }

    @Test
    void solicitedSetsTheSolicitedEventBitOnTheLastPacketAndWakesASolicitedOnlyCq() throws Exception {
        try (SimPair p = new SimPair(5, new SimPair.Config(QpType.RC).recvChannels())) {
            Wire wire = Wire.on(p);
            p.b.qp.postRecv(recv(p.b, 0, 4096, 1).next(recv(p.b, 8192, 4096, 2)));
            p.b.recvCq.requestNotify(true);

            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 3000));
            p.awaitOn(p.b, 0, 1, 10 * MS);
            assertThat(p.b.recvChannel.awaitEvent(0, TimeUnit.SECONDS)).as("an unsolicited receive does not wake it").isNull();

            SendWr solicited = wr(p.a, WrOpcode.SEND, 0, 3000);
            solicited.flags |= SendWr.SOLICITED;
            p.a.qp.postSend(solicited);
            p.awaitOn(p.b, 0, 2, 10 * MS);
            assertThat(p.b.recvChannel.awaitEvent(10, TimeUnit.SECONDS)).isSameAs(p.b.recvCq);

            assertThat(wire.matching(Wire.fromSide(p.a))).extracting(Wire.Packet::solicited)
                    .containsExactly(false, false, false, false, false, true);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SEND", "SEND_WITH_IMM", "RDMA_WRITE"})
    void inlineDataIsCopiedAtPostTime(WrOpcode op) throws Exception {
        try (SimPair p = new SimPair(6, QpType.RC, Mtu.MTU_256, 1 << 20)) {
            byte[] data = new byte[256];
            Arrays.fill(data, (byte) 0x3C);
            data[0] = 1;
            data[255] = 2;
            SendWr w = rdma(p.a, op, 0, 0, p.b, 2048);
            w.sgl.clear();
            w.flags |= SendWr.INLINE;
            w.inlineData = data;
            w.inlineLength = 256;
            p.b.qp.postRecv(recv(p.b, 2048, 1024, 1));
            p.a.qp.postSend(w);
            Arrays.fill(data, (byte) 0); // the WQE holds its own copy
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.sendCompletions(p.a).getFirst().byteLen()).isEqualTo(256);
            if (op != WrOpcode.RDMA_WRITE) {
                p.awaitOn(p.b, 0, 1, 10 * MS);
                assertThat(p.recvCompletions(p.b).getFirst().byteLen()).isEqualTo(256);
            }
            byte[] arrived = bytes(p.b.memory, 2048, 256);
            assertThat(arrived[0]).isEqualTo((byte) 1);
            assertThat(arrived[255]).isEqualTo((byte) 2);
            assertThat(Arrays.copyOfRange(arrived, 1, 255)).containsOnly(0x3C);
        }
    }

    @Test
    void inlineIsRefusedBeyondMaxInlineDataAndForReads() throws Exception {
        try (SimPair p = new SimPair(7, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            SendWr big = wr(p.a, WrOpcode.SEND, 0, 0);
            big.sgl.clear();
            big.flags |= SendWr.INLINE;
            big.inlineData = new byte[257];
            big.inlineLength = 257;
            assertThatThrownBy(() -> p.a.qp.postSend(big)).isInstanceOf(VerbsException.class)
                    .hasMessageContaining("max_inline_data")
                    .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.EINVAL));
            SendWr read = rdma(p.a, WrOpcode.RDMA_READ, 0, 8, p.b, 0);
            read.flags |= SendWr.INLINE;
            read.inlineData = new byte[8];
            read.inlineLength = 8;
            assertThatThrownBy(() -> p.a.qp.postSend(read)).isInstanceOf(VerbsException.class);
        }
    }
}
