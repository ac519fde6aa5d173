package io.jrxe.verbs.sim;

import io.jrxe.rnic.cm.AcceptParams;
import io.jrxe.rnic.cm.CmConnection;
import io.jrxe.rnic.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.rnic.cm.CmState;
import io.jrxe.rnic.cm.ConnectParams;
import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.engine.MadDropReason;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.cm.RejectReason;
import io.jrxe.wire.cm.SidrStatus;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.jrxe.verbs.sim.CmFixture.SECOND;
import static io.jrxe.verbs.sim.CmFixture.SERVICE;
import static org.assertj.core.api.Assertions.assertThat;

/** The CM's exchanges on a fault-free simulated network: connect, accept, reject, disconnect, SIDR, MRA. */
class CmConnectTest {
    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(byte[] privateData, int length) {
        return new String(privateData, 0, length, StandardCharsets.US_ASCII);
    }

    @Test
    void connectAcceptEstablishesQpsThatCarryRdmaTrafficThenDisconnectEndsInTimewaitExit() throws Exception {
        try (CmFixture f = new CmFixture(1)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            Qp qa = a.newQp();
            Qp qb = b.newQp();
            CmConnection ca = a.cm().connect(new ConnectParams(b.address, SERVICE, qa.qpNum())
                    .privateData(text("hello from A")).responderResources(4).initiatorDepth(2), a.queue);
            assertThat(ca.state()).isEqualTo(CmState.REQ_SENT);
            f.await(() -> b.last(CmEventType.CONNECT_REQUEST) != null, SECOND, "CONNECT_REQUEST");
            CmEvent request = b.last(CmEventType.CONNECT_REQUEST);
            assertThat(text(request.privateData(), 12)).isEqualTo("hello from A");
            assertThat(request.privateData()).hasSize(92);
            assertThat(request.request().remoteQpn()).isEqualTo(qa.qpNum());
            assertThat(request.request().responderResources()).isEqualTo(4);
            assertThat(request.request().initiatorDepth()).isEqualTo(2);
            CmConnection cb = request.connection();
            assertThat(cb.state()).isEqualTo(CmState.REQ_RCVD);

            b.cm().accept(cb, new AcceptParams(qb.qpNum()).privateData(text("welcome")));
            f.await(() -> a.last(CmEventType.ESTABLISHED) != null && b.last(CmEventType.ESTABLISHED) != null, SECOND,
                    "ESTABLISHED on both sides");
            assertThat(text(a.last(CmEventType.ESTABLISHED).privateData(), 7)).isEqualTo("welcome");
            assertThat(ca.state()).isEqualTo(CmState.ESTABLISHED);
            assertThat(cb.state()).isEqualTo(CmState.ESTABLISHED);

            QueuePair pa = a.queuePair(qa);
            QueuePair pb = b.queuePair(qb);
            assertThat(pa.state()).isEqualTo(QpState.RTS);
            assertThat(pb.state()).isEqualTo(QpState.RTS);
            assertThat(pa.destQpn()).isEqualTo(qb.qpNum());
            assertThat(pb.destQpn()).isEqualTo(qa.qpNum());
            assertThat(pa.sqPsn()).as("A sends from the PSN B expects").isEqualTo(pb.rqPsn());
            assertThat(pb.sqPsn()).as("B sends from the PSN A expects").isEqualTo(pa.rqPsn());
            assertThat(pa.maxDestRdAtomic()).isEqualTo(4);
            assertThat(pb.maxRdAtomic()).as("B's initiator depth is bounded by A's responder resources").isEqualTo(1);
            assertThat(pa.av().flowLabel()).isEqualTo(pb.av().flowLabel()).isNotZero();
            assertThat(pa.retryCnt()).isEqualTo(7);
            assertThat(pb.rnrRetry()).isEqualTo(7);

            // RDMA traffic on the connected QPs: a WRITE from A into B's memory, a SEND from B to A, a READ by A.
            byte[] payload = text("written over a CM connection");
            a.memory.asByteBuffer().put(0, payload);
            RecvWr recv = new RecvWr(1);
            recv.wrId = 9;
            recv.sgl.add(a.memory.address() + 4096, 64, a.mr.lkey());
            qa.postRecv(recv);
            SendWr write = wr(a, WrOpcode.RDMA_WRITE, 0, payload.length);
            write.remoteAddr = b.memory.address() + 100;
            write.rkey = b.mr.rkey();
            qa.postSend(write);
            b.memory.asByteBuffer().put(200, text("sent back"));
            qb.postSend(wr(b, WrOpcode.SEND, 200, 9));
            SendWr read = wr(a, WrOpcode.RDMA_READ, 8192, 9);
            read.remoteAddr = b.memory.address() + 200;
            read.rkey = b.mr.rkey();
            qa.postSend(read);
            WorkCompletion[] wa = polled(f, a, 3);
            WorkCompletion[] wb = polled(f, b, 1);
            for (WorkCompletion wc : wa) {
                assertThat(wc.status()).as(wc.toString()).isEqualTo(WcStatus.SUCCESS);
            }
            assertThat(wb[0].status()).isEqualTo(WcStatus.SUCCESS);
            byte[] got = new byte[payload.length];
            b.memory.asByteBuffer().get(100, got);
            assertThat(got).isEqualTo(payload);
            byte[] sent = new byte[9];
            a.memory.asByteBuffer().get(4096, sent);
            assertThat(text(sent, 9)).isEqualTo("sent back");
            a.memory.asByteBuffer().get(8192, sent);
            assertThat(text(sent, 9)).isEqualTo("sent back");

            a.cm().disconnect(ca, text("bye"));
            assertThat(pa.state()).isEqualTo(QpState.ERR);
            f.await(() -> a.last(CmEventType.TIMEWAIT_EXIT) != null && b.last(CmEventType.TIMEWAIT_EXIT) != null,
                    10 * SECOND, "TIMEWAIT_EXIT on both sides");
            assertThat(a.types()).containsExactly(CmEventType.ESTABLISHED, CmEventType.DISCONNECTED, CmEventType.TIMEWAIT_EXIT);
            assertThat(b.types()).containsExactly(CmEventType.CONNECT_REQUEST, CmEventType.ESTABLISHED,
                    CmEventType.DISCONNECTED, CmEventType.TIMEWAIT_EXIT);
            assertThat(a.last(CmEventType.DISCONNECTED).status()).isZero();
            assertThat(text(b.last(CmEventType.DISCONNECTED).privateData(), 3)).isEqualTo("bye");
            assertThat(pb.state()).isEqualTo(QpState.ERR);
            assertThat(a.cm().connectionCount()).isZero();
            assertThat(b.cm().connectionCount()).isZero();
            assertThat(ca.state()).isEqualTo(CmState.CLOSED);
            // Five MADs, each sent once, each taken: REQ, REP, RTU, DREQ, DREP.
            assertThat(a.gsi().sent() + b.gsi().sent()).isEqualTo(5);
            assertThat(a.gsi().received() + b.gsi().received()).isEqualTo(5);
            assertThat(a.gsi().droppedTotal() + b.gsi().droppedTotal()).isZero();
            assertThat(a.counter(Counter.ENGINE_ERROR) + b.counter(Counter.ENGINE_ERROR)).isZero();
        }
    }

    private static SendWr wr(CmFixture.Node n, WrOpcode op, long offset, int length) {
        SendWr wr = new SendWr(1);
        wr.opcode = op;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(n.memory.address() + offset, length, n.mr.lkey());
        return wr;
    }

    static WorkCompletion[] polled(CmFixture f, CmFixture.Node n, int count) {
        WorkCompletion[] wcs = new WorkCompletion[count];
        for (int i = 0; i < count; i++) {
            wcs[i] = new WorkCompletion();
        }
        int[] got = {0};
        f.await(() -> {
            WorkCompletion[] one = {new WorkCompletion()};
            while (got[0] < count && n.cq.poll(one) == 1) {
                wcs[got[0]++] = one[0];
                one[0] = new WorkCompletion();
            }
            return got[0] == count;
        }, SECOND, count + " completions on " + n.device);
        return wcs;
    }

    @Test
    void aConsumerRejectReachesTheActiveSideWithReason28AndItsPrivateData() throws Exception {
        try (CmFixture f = new CmFixture(2)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            Qp qa = a.newQp();
            CmConnection ca = a.cm().connect(new ConnectParams(b.address, SERVICE, qa.qpNum()), a.queue);
            f.await(() -> b.last(CmEventType.CONNECT_REQUEST) != null, SECOND, "CONNECT_REQUEST");
            b.cm().reject(b.last(CmEventType.CONNECT_REQUEST).connection(), text("go away"));
            f.await(() -> a.last(CmEventType.REJECTED) != null, SECOND, "REJECTED");
            CmEvent rejected = a.last(CmEventType.REJECTED);
            assertThat(rejected.status()).isEqualTo(RejectReason.CONSUMER_REJECT.code()).isEqualTo(28);
            assertThat(text(rejected.privateData(), 7)).isEqualTo("go away");
            assertThat(ca.state()).isEqualTo(CmState.CLOSED);
            assertThat(a.queuePair(qa).state()).isEqualTo(QpState.ERR);
            f.settle(60 * SECOND, () -> a.cm().connectionCount() + b.cm().connectionCount() == 0);
            assertThat(a.cm().connectionCount() + b.cm().connectionCount()).isZero();
            assertThat(a.types()).containsExactly(CmEventType.REJECTED);
        }
    }

    @Test
    void aReqForAServiceNobodyListensOnIsRejectedWithReason8() throws Exception {
        try (CmFixture f = new CmFixture(3)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            Qp qa = a.newQp();
            a.cm().connect(new ConnectParams(b.address, SERVICE + 1, qa.qpNum()), a.queue);
            f.await(() -> a.last(CmEventType.REJECTED) != null, SECOND, "REJECTED");
            assertThat(a.last(CmEventType.REJECTED).status()).isEqualTo(RejectReason.INVALID_SERVICE_ID.code()).isEqualTo(8);
            assertThat(b.cm().connectionCount()).as("the passive side keeps no state for it").isZero();
            assertThat(a.cm().connectionCount()).isZero();
            assertThat(a.queuePair(qa).state()).isEqualTo(QpState.ERR);
        }
    }

    @Test
    void aSlowConsumerSendsAnMraAndTheActiveSideWaitsWithoutRetrying() throws Exception {
        try (CmFixture f = new CmFixture(4)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            Qp qa = a.newQp();
            Qp qb = b.newQp();
            // Response timeout 16: 268 ms; the passive side sends its MRA after half of it.
            CmConnection ca = a.cm().connect(new ConnectParams(b.address, SERVICE, qa.qpNum()).cmResponseTimeout(16), a.queue);
            f.await(() -> ca.state() == CmState.MRA_REQ_RCVD, SECOND, "the MRA");
            CmConnection cb = b.last(CmEventType.CONNECT_REQUEST).connection();
            assertThat(cb.state()).isEqualTo(CmState.MRA_REQ_SENT);
            f.run(10 * SECOND); // far beyond the REQ's own timeout; within the MRA's 34 s
            assertThat(ca.state()).isEqualTo(CmState.MRA_REQ_RCVD);
            assertThat(a.gsi().sent()).as("the REQ went out once").isEqualTo(1);
            b.cm().accept(cb, new AcceptParams(qb.qpNum()));
            f.await(() -> ca.state() == CmState.ESTABLISHED && cb.state() == CmState.ESTABLISHED, SECOND, "ESTABLISHED");
        }
    }

    @Test
    void sidrGoesToTheListenersConsumerWhoseAnswerResolvesTheServiceAndAnUnknownServiceIsRefused() throws Exception {
        try (CmFixture f = new CmFixture(5)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            a.cm().resolveService(b.address, SERVICE, text("which QP?"), 16, 3, a.queue);
            f.await(() -> b.last(CmEventType.CONNECT_REQUEST) != null, SECOND, "the SIDR_REQ at B's consumer");
            CmEvent request = b.last(CmEventType.CONNECT_REQUEST);
            assertThat(text(request.privateData(), 9)).isEqualTo("which QP?");
            assertThat(request.request()).as("a SIDR request has no REQ fields").isNull();
            b.cm().acceptDatagrams(request.connection(), 0x1234, 0x11223344, text("this one"));
            f.await(() -> a.last(CmEventType.ESTABLISHED) != null, SECOND, "SIDR_REP");
            CmEvent resolved = a.last(CmEventType.ESTABLISHED);
            assertThat(resolved.remoteQpn()).isEqualTo(0x1234);
            assertThat(resolved.remoteQkey()).isEqualTo(0x11223344);
            assertThat(text(resolved.privateData(), 8)).isEqualTo("this one");
            a.cm().resolveService(b.address, SERVICE + 7, new byte[0], 16, 3, a.queue);
            f.await(() -> a.last(CmEventType.UNREACHABLE) != null, SECOND, "a refusing SIDR_REP");
            assertThat(a.last(CmEventType.UNREACHABLE).status()).isEqualTo(SidrStatus.SERVICE_ID_NOT_SUPPORTED.code());
            assertThat(a.cm().connectionCount()).isZero();
            f.run(SECOND);
            assertThat(b.cm().connectionCount()).as("B's kept answer is gone after its time-wait").isZero();
        }
    }

    @Test
    void aSidrRequestTheConsumerRejectsEndsUnreachableWithTheStatusRejected() throws Exception {
        try (CmFixture f = new CmFixture(15)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            a.cm().resolveService(b.address, SERVICE, new byte[0], 16, 3, a.queue);
            f.await(() -> b.last(CmEventType.CONNECT_REQUEST) != null, SECOND, "the SIDR_REQ at B's consumer");
            b.cm().reject(b.last(CmEventType.CONNECT_REQUEST).connection(), new byte[0]);
            f.await(() -> a.last(CmEventType.UNREACHABLE) != null, SECOND, "the refusing SIDR_REP");
            assertThat(a.last(CmEventType.UNREACHABLE).status()).isEqualTo(SidrStatus.REJECTED.code());
        }
    }

    @Test
    void aSecondListenerOnTheSameServiceAndAcceptOfAnActiveConnectionAreRefused() throws Exception {
        try (CmFixture f = new CmFixture(6)) {
            CmFixture.Node a = f.node("10.0.0.1");
            CmFixture.Node b = f.node("10.0.0.2");
            b.cm().listen(SERVICE, b.queue);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.cm().listen(SERVICE, b.queue))
                    .hasMessageContaining("has a listener already");
            Qp qa = a.newQp();
            CmConnection ca = a.cm().connect(new ConnectParams(b.address, SERVICE, qa.qpNum()), a.queue);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.cm().accept(ca, new AcceptParams(qa.qpNum())))
                    .hasMessageContaining("accept answers a connection request");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.cm().connect(
                    new ConnectParams(b.address, SERVICE, qa.qpNum()).privateData(new byte[93]), a.queue))
                    .hasMessageContaining("up to 92 bytes");
            assertThat(Arrays.asList(MadDropReason.values())).isNotEmpty();
        }
    }
}
