package io.jrxe.verbs.sim;

import io.jrxe.rnic.queue.PostException;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Chains of work requests with a bad one: the ones before it are posted, the error names its index (bad_wr). */
class WorkRequestChainTest {
    private static int badIndex(VerbsException e) {
        return ((PostException) e.getCause()).badIndex();
    }

    /** The same work request in one with room for 8 SGEs (more than the QP's max_send_sge 4). */
    private static SendWr copyWithRoom(SendWr w) {
        SendWr big = new SendWr(8);
        big.wrId = w.wrId;
        big.opcode = w.opcode;
        big.flags = w.flags;
        big.remoteAddr = w.remoteAddr;
        big.rkey = w.rkey;
        big.sgl.copyFrom(w.sgl);
        return big;
    }

    @Test
    void postSendStopsAtTheBadWorkRequest() throws Exception {
        try (SimPair p = new SimPair(1, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            SendWr tooManySges = id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 2);
            tooManySges = copyWithRoom(tooManySges);
            for (int i = 0; i < 4; i++) {
                tooManySges.sgl.add(p.a.memory.address(), 1, p.a.mr.lkey());
            }
            SendWr chain = id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 1);
            chain.next(tooManySges).next().next(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 3));
            VerbsException e = catchThrowableOfType(VerbsException.class, () -> p.a.qp.postSend(chain));
            assertThat(e.errno()).isEqualTo(Errno.EINVAL);
            assertThat(badIndex(e)).isEqualTo(1);
            assertThat(e).hasMessageContaining("work request 1").hasMessageContaining("max_send_sge");
            p.awaitOn(p.a, 1, 0, 10 * MS);
            p.run(10 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(1L);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        }
    }

    @Test
    void anOpcodeTheQpTypeDoesNotAllowIsABadWorkRequest() throws Exception {
        try (SimPair p = new SimPair(2, QpType.UC, Mtu.MTU_1024, 1 << 20)) {
            SendWr chain = id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 1);
            chain.next(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 2))
                    .next().next(id(rdma(p.a, WrOpcode.RDMA_READ, 0, 10, p.b, 0), 3));
            VerbsException e = catchThrowableOfType(VerbsException.class, () -> p.a.qp.postSend(chain));
            assertThat(badIndex(e)).isEqualTo(2);
            p.awaitOn(p.a, 2, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(1L, 2L);
        }
    }

    @Test
    void aFullSendQueueIsEnomemAtTheFirstWorkRequestThatDoesNotFit() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).caps(new QpCapabilities(4, 16, 4, 4, 64)))) {
            SendWr chain = id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 0);
            SendWr tail = chain;
            for (int i = 1; i < 6; i++) {
                SendWr next = id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), i);
                tail.next(next);
                tail = next;
            }
            VerbsException e = catchThrowableOfType(VerbsException.class, () -> p.a.qp.postSend(chain));
            assertThat(e.errno()).isEqualTo(Errno.ENOMEM);
            int capacity = badIndex(e);
            assertThat(capacity).isGreaterThanOrEqualTo(4).isLessThan(6);
            p.awaitOn(p.a, capacity, 0, 10 * MS);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
        }
    }

    @Test
    void postRecvStopsAtTheBadWorkRequest() throws Exception {
        try (SimPair p = new SimPair(4, QpType.RC, Mtu.MTU_1024, 1 << 20)) {
            RecvWr bad = new RecvWr(8);
            bad.wrId = 2;
            bad.sgl.add(p.b.memory.address() + 4096, 100, p.b.mr.lkey());
            for (int i = 0; i < 4; i++) {
                bad.sgl.add(p.b.memory.address(), 1, p.b.mr.lkey());
            }
            RecvWr chain = recv(p.b, 0, 100, 1).next(bad);
            bad.next(recv(p.b, 8192, 100, 3));
            VerbsException e = catchThrowableOfType(VerbsException.class, () -> p.b.qp.postRecv(chain));
            assertThat(badIndex(e)).isEqualTo(1);
            assertThat(e).hasMessageContaining("max_recv_sge");

            // Exactly one receive was posted: the first SEND takes it, the second meets an empty queue.
            p.a.qp.postSend(id(wr(p.a, WrOpcode.SEND, 0, 10), 10).next(id(wr(p.a, WrOpcode.SEND, 0, 10), 11)));
            p.awaitCompletions(1, 1, 10 * MS);
            assertThat(p.recvCompletions(p.b)).extracting(WorkCompletion::wrId).containsExactly(1L);
            p.run(MS, () -> p.counter(p.b, io.jrxe.rnic.device.Counter.SEND_RNR_ERR) > 0);
            assertThat(p.counter(p.b, io.jrxe.rnic.device.Counter.SEND_RNR_ERR)).as("no receive for the second SEND")
                    .isPositive();
        }
    }
}
