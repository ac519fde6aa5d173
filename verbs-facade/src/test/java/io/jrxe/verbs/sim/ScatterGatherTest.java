package io.jrxe.verbs.sim;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.bytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/** Scatter/gather lists of several SGEs on both sides, crossing packet boundaries anywhere. */
class ScatterGatherTest {
    /** Local pieces of A's memory: offsets and lengths chosen so no SGE boundary meets a 1024-byte packet boundary. */
    static final long[] SEND_AT = {10, 50_000, 20_011, 90_000};
    static final int[] SEND_LEN = {100, 1500, 1, 2000};
    static final long[] RECV_AT = {300_007, 350_000, 400_001};
    static final int[] RECV_LEN = {700, 2000, 1500};

    private static byte[] concat(SimPair.Side s, long[] at, int[] len, int total) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < at.length; i++) {
            out.writeBytes(bytes(s.memory, at[i], len[i]));
        }
        return java.util.Arrays.copyOf(out.toByteArray(), total);
    }

    private static void gatherList(SimPair.Side s, SendWr w, long[] at, int[] len) {
        w.sgl.clear();
        for (int i = 0; i < at.length; i++) {
            w.sgl.add(s.memory.address() + at[i], len[i], s.mr.lkey());
        }
    }

    private static RecvWr scatterList(SimPair.Side s, long[] at, int[] len, long id) {
        RecvWr r = new RecvWr(4);
        r.wrId = id;
        for (int i = 0; i < at.length; i++) {
            r.sgl.add(s.memory.address() + at[i], len[i], s.mr.lkey());
        }
        return r;
    }

    @Test
    void aSendGatheredFromFourSgesScattersIntoThree() throws Exception {
        try (SimPair p = new SimPair(1, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            fill(p.a.memory, 0, 100_000, 1);
            SendWr w = wr(p.a, WrOpcode.SEND, 0, 0);
            gatherList(p.a, w, SEND_AT, SEND_LEN);
            p.b.qp.postRecv(scatterList(p.b, RECV_AT, RECV_LEN, 5));
            p.a.qp.postSend(w);
            p.awaitCompletions(1, 1, 10 * MS);
            int total = 3601;
            assertThat(p.recvCompletions(p.b).getFirst().byteLen()).isEqualTo(total);
            assertThat(concat(p.b, RECV_AT, RECV_LEN, total)).isEqualTo(concat(p.a, SEND_AT, SEND_LEN, total));
        }
    }

    @Test
    void aWriteGathersAndAReadScatters() throws Exception {
        try (SimPair p = new SimPair(2, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            fill(p.a.memory, 0, 100_000, 2);
            SendWr write = rdma(p.a, WrOpcode.RDMA_WRITE, 0, 0, p.b, 500_000);
            gatherList(p.a, write, SEND_AT, SEND_LEN);
            p.a.qp.postSend(write);
            p.awaitOn(p.a, 1, 0, 10 * MS);
            assertThat(bytes(p.b.memory, 500_000, 3601)).isEqualTo(concat(p.a, SEND_AT, SEND_LEN, 3601));

            fill(p.b.memory, 600_000, 4200, 3);
            SendWr read = rdma(p.a, WrOpcode.RDMA_READ, 0, 0, p.b, 600_000);
            gatherList(p.a, read, RECV_AT, RECV_LEN);
            p.a.qp.postSend(read);
            p.awaitOn(p.a, 2, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a).get(1).byteLen()).isEqualTo(4200);
            assertThat(concat(p.a, RECV_AT, RECV_LEN, 4200)).isEqualTo(bytes(p.b.memory, 600_000, 4200));
        }
    }

    @Test
    void aMessageLongerThanTheReceiveBuffersFailsBothSides() throws Exception {
        try (SimPair p = new SimPair(3, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            p.b.qp.postRecv(scatterList(p.b, new long[] {0, 10_000}, new int[] {1000, 1000}, 6));
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 2001));
            p.awaitCompletions(1, 1, 10 * MS);
            // rxe: RESPST_ERR_LENGTH, a class C error: NAK invalid request, the receive completes LOC_LEN_ERR.
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_INV_REQ_ERR);
            WorkCompletion r = p.recvCompletions(p.b).getFirst();
            assertThat(r.status()).isEqualTo(WcStatus.LOC_LEN_ERR);
            assertThat(r.wrId()).isEqualTo(6);
            assertThat(p.b.qp.query().state()).isEqualTo(QpState.ERR);
        }
    }

    @Test
    void aReceiveWithABadLkeyIsARemoteOperationalError() throws Exception {
        try (SimPair p = new SimPair(4, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            RecvWr r = new RecvWr(4);
            r.wrId = 7;
            r.sgl.add(p.b.memory.address(), 100, p.b.mr.lkey());
            r.sgl.add(p.b.memory.address() + 1000, 100, p.b.mr.lkey() ^ 0x7700);
            p.b.qp.postRecv(r);
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 150));
            p.awaitCompletions(1, 1, 10 * MS);
            // The receiver cannot place the data: NAK remote operational error (rxe: RESPST_ERR_MALFORMED_WQE).
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.REM_OP_ERR);
            // jrxe reports the receive as LOC_PROT_ERR (the SGE's key failed); rxe reports LOC_QP_OP_ERR.
            assertThat(p.recvCompletions(p.b).getFirst().status()).isEqualTo(WcStatus.LOC_PROT_ERR);
        }
    }
}
