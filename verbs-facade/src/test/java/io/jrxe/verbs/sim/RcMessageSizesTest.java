package io.jrxe.verbs.sim;

import io.jrxe.verbs.Mtu;
import io.jrxe.rnic.device.Port;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Mr;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.jrxe.verbs.sim.Ops.SECOND;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.sameBytes;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every RC operation that moves a message, at the sizes where segmentation changes: 0, 1,
 * MTU-1, MTU, MTU+1, many MTUs and the port's largest message (8 MiB, rxe's max_msg_sz), data
 * checked byte for byte and the completions on both sides checked field by field.
 */
class RcMessageSizesTest {
    static final WrOpcode[] MESSAGE_OPS = {
        WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.SEND_WITH_INV, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM,
        WrOpcode.RDMA_READ,
    };

    static long[] sizes(int mtu) {
        return new long[] {0, 1, mtu - 1, mtu, mtu + 1, 37L * mtu + 5, Port.MAX_MESSAGE_SIZE};
    }

    static Stream<Arguments> everyOpAndSize() {
        List<Arguments> all = new ArrayList<>();
        for (WrOpcode op : MESSAGE_OPS) {
            for (long size : sizes(1024)) {
                all.add(Arguments.of(op, Mtu.MTU_1024, size));
            }
        }
        return all.stream();
    }

    /** The other path MTUs, around their own boundaries. */
    static Stream<Arguments> otherMtus() {
        List<Arguments> all = new ArrayList<>();
        for (Mtu mtu : new Mtu[] {Mtu.MTU_256, Mtu.MTU_512, Mtu.MTU_2048, Mtu.MTU_4096}) {
            for (WrOpcode op : new WrOpcode[] {WrOpcode.SEND, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ}) {
                int m = mtu.bytes();
                for (long size : new long[] {m - 1, m, m + 1, 5L * m + 3}) {
                    all.add(Arguments.of(op, mtu, size));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} of {2} bytes, path MTU {1}")
    @MethodSource("everyOpAndSize")
    void messageArrivesWhole(WrOpcode op, Mtu mtu, long size) throws Exception {
        transfer(QpType.RC, op, mtu, size);
    }

    @ParameterizedTest(name = "{0} of {2} bytes, path MTU {1}")
    @MethodSource("otherMtus")
    void messageArrivesWholeAtOtherMtus(WrOpcode op, Mtu mtu, long size) throws Exception {
        transfer(QpType.RC, op, mtu, size);
    }

    /**
     * One message from A to B (or, for a READ, from B's memory into A's), then every check.
     * Layout: A's source at SRC, B's destination at DST (odd offsets, so no copy is page aligned).
     */
    static void transfer(QpType type, WrOpcode op, Mtu mtu, long size) throws Exception {
        final long src = 100;
        final long dst = size + 333;
        long memory = Math.max(1 << 20, 2 * size + 8192);
        try (SimPair p = new SimPair(size * 31 + op.ordinal(), new SimPair.Config(type).mtu(mtu).memory(memory))) {
            int len = (int) size;
            boolean read = op == WrOpcode.RDMA_READ;
            SimPair.Side from = read ? p.b : p.a;
            fill(from.memory, src, size, size + 17);
            boolean consumesReceive = op != WrOpcode.RDMA_WRITE && op != WrOpcode.RDMA_READ;
            if (consumesReceive) {
                // The receive buffer is longer than the message: byte_len must say how much arrived.
                p.b.qp.postRecv(recv(p.b, dst, len + 64, 900));
            }
            Mr victim = null;
            SendWr w;
            switch (op) {
                case SEND, SEND_WITH_IMM, SEND_WITH_INV -> w = wr(p.a, op, src, len);
                case RDMA_READ -> w = rdma(p.a, op, dst, len, p.b, src);
                default -> w = rdma(p.a, op, src, len, p.b, dst);
            }
            w.wrId = 7;
            w.immData = 0xCAFE0000 | (int) (size & 0xFFFF);
            if (op == WrOpcode.SEND_WITH_INV) {
                victim = p.b.pd.regMr(p.b.memory.asSlice(memory - 4096, 4096), Access.LOCAL_WRITE | Access.REMOTE_READ);
                w.invalidateRkey = victim.rkey();
            }
            p.a.qp.postSend(w);
            p.awaitOn(p.a, 1, 0, 10 * SECOND);
            if (consumesReceive) {
                p.awaitOn(p.b, 0, 1, SECOND);
            }
            if (type == QpType.UC) {
                // A UC sender completes once its packets are out: let them arrive, and on the shared-memory wire, where
                // the receiving NIC may be placing the last one as its counter says it came, be written. The checks
                // below say what is missing if they never do.
                p.runUntil(() -> p.delivered() && sameBytes(p.b.memory, dst, p.a.memory, src, size), SECOND);
            }

            WorkCompletion s = p.sendCompletions(p.a).getFirst();
            assertThat(s.status()).as("%s", s).isEqualTo(WcStatus.SUCCESS);
            assertThat(s.wrId()).isEqualTo(7);
            assertThat(s.opcode()).isEqualTo(op.completion());
            assertThat(s.byteLen()).isEqualTo(len);
            assertThat(s.qpNum()).isEqualTo(p.a.qp.qpNum());

            if (read) {
                assertSameBytes(p.a.memory, dst, p.b.memory, src, size);
            } else {
                assertSameBytes(p.b.memory, dst, p.a.memory, src, size);
            }
            if (consumesReceive) {
                WorkCompletion r = p.recvCompletions(p.b).getFirst();
                assertThat(r.status()).as("%s", r).isEqualTo(WcStatus.SUCCESS);
                assertThat(r.wrId()).isEqualTo(900);
                assertThat(r.byteLen()).isEqualTo(len);
                assertThat(r.qpNum()).isEqualTo(p.b.qp.qpNum());
                assertThat(r.opcode()).isEqualTo(op == WrOpcode.RDMA_WRITE_WITH_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV);
                boolean imm = op == WrOpcode.SEND_WITH_IMM || op == WrOpcode.RDMA_WRITE_WITH_IMM;
                assertThat(r.hasImmediate()).isEqualTo(imm);
                assertThat(r.hasInvalidate()).isEqualTo(op == WrOpcode.SEND_WITH_INV);
                if (imm) {
                    assertThat(r.immData()).isEqualTo(w.immData);
                }
                if (victim != null) {
                    assertThat(r.invalidatedRkey()).isEqualTo(victim.rkey());
                }
            }
            assertThat(p.sendCompletions(p.a)).hasSize(1);
            assertThat(p.recvCompletions(p.b)).hasSize(consumesReceive ? 1 : 0);
        }
    }
}
