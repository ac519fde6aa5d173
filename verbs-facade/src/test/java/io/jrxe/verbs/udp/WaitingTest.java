package io.jrxe.verbs.udp;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.CompletionFutures;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The three ways a program waits for a completion without spinning for ever: poll with a timeout, a channel, futures. */
class WaitingTest {
    private final Arena arena = Arena.ofShared();
    private EmulatedDevice deviceA;
    private EmulatedDevice deviceB;
    private Context a;
    private Cq cq;
    private CompChannel channel;
    private Cq eventCq;
    private Qp qp;
    private Qp eventQp;
    private Mr mrA;
    private Mr mrB;
    private MemorySegment src;
    private MemorySegment dst;

    @BeforeEach
    void twoConnectedPairs() throws Exception {
        deviceA = Verbs.emulated().createUdp("wait-a", InetAddress.getByName("127.0.45.1"));
        deviceB = Verbs.emulated().createUdp("wait-b", InetAddress.getByName("127.0.45.2"));
        a = deviceA.open();
        Context b = deviceB.open();
        Pd pdA = a.allocPd();
        Pd pdB = b.allocPd();
        src = arena.allocate(4096, 4096);
        dst = arena.allocate(4096, 4096);
        mrA = pdA.regMr(src, Access.LOCAL_WRITE);
        mrB = pdB.regMr(dst, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        cq = a.createCq(16, null);
        channel = a.createCompChannel();
        eventCq = a.createCq(16, channel);
        Cq cqB = b.createCq(16, null);
        QpCapabilities caps = new QpCapabilities(16, 16, 1, 1, 0);
        qp = pdA.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, caps, false));
        eventQp = pdA.createQp(new QpInitAttributes(QpType.RC, eventCq, eventCq, null, caps, false));
        for (Qp mine : new Qp[] {qp, eventQp}) {
            Qp peer = pdB.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
            QpConnect.to(new QpPeer(peer.qpNum(), 0, b.queryGid(1, 1).gid())).apply(mine);
            QpConnect.to(new QpPeer(mine.qpNum(), 0, a.queryGid(1, 1).gid())).apply(peer);
        }
    }

    @AfterEach
    void close() {
        Verbs.emulated().remove(deviceA);
        Verbs.emulated().remove(deviceB);
        arena.close();
    }

    private void write(Qp on, long wrId, boolean signaled) throws Exception {
        SendWr wr = new SendWr(1);
        wr.wrId = wrId;
        wr.opcode = WrOpcode.RDMA_WRITE;
        wr.flags = signaled ? SendWr.SIGNALED : 0;
        wr.sgl.add(src.address(), 64, mrA.lkey());
        wr.remoteAddr = dst.address();
        wr.rkey = mrB.rkey();
        on.postSend(wr);
    }

    private static WorkCompletion[] completions() {
        return new WorkCompletion[] {new WorkCompletion(), new WorkCompletion()};
    }

    @Test
    void pollWithATimeoutReturnsTheCompletionOrNothingOnceTheTimePassed() throws Exception {
        WorkCompletion[] wcs = completions();
        long start = System.nanoTime();
        assertThat(cq.poll(wcs, 20, TimeUnit.MILLISECONDS)).as("nothing posted").isZero();
        assertThat(System.nanoTime() - start).as("it waited its time").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        write(qp, 7, true);
        assertThat(cq.poll(wcs, 5, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(wcs[0].status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(wcs[0].wrId()).isEqualTo(7);
    }

    @Test
    void aPollerThatIsInterruptedIsToldSo() {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> cq.poll(completions(), 5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(Thread.interrupted()).as("the interrupt was taken").isFalse();
    }

    @Test
    void aChannelWaitsForTheCqsEventAndPolls() throws Exception {
        WorkCompletion[] wcs = completions();
        assertThat(channel.poll(eventCq, wcs, 20, TimeUnit.MILLISECONDS)).as("nothing posted").isZero();
        write(eventQp, 9, true);
        assertThat(channel.poll(eventCq, wcs, 5, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(wcs[0].wrId()).isEqualTo(9);
        write(eventQp, 10, true);
        assertThat(channel.poll(eventCq, wcs, 5, TimeUnit.SECONDS)).as("armed again by the first poll").isEqualTo(1);
        assertThat(wcs[0].wrId()).isEqualTo(10);
    }

    @Test
    void futuresCompleteByWrIdAndWhatNobodyAskedForGoesToTheCallback() throws Exception {
        List<Long> unexpected = new ArrayList<>();
        CompletableFuture<WorkCompletion> pending;
        try (CompletionFutures futures = CompletionFutures.start(cq, wc -> {
            synchronized (unexpected) {
                unexpected.add(wc.wrId());
                unexpected.notifyAll();
            }
        })) {
            CompletableFuture<WorkCompletion> first = futures.expect(1);
            CompletableFuture<WorkCompletion> second = futures.expect(2);
            write(qp, 1, true);
            write(qp, 3, true);
            write(qp, 2, true);
            assertThat(first.get(5, TimeUnit.SECONDS).wrId()).isEqualTo(1);
            assertThat(second.get(5, TimeUnit.SECONDS).status()).isEqualTo(WcStatus.SUCCESS);
            synchronized (unexpected) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (unexpected.isEmpty() && System.nanoTime() < deadline) {
                    unexpected.wait(100);
                }
                assertThat(unexpected).containsExactly(3L);
            }
            assertThat(futures.expect(4)).isNotDone();
            assertThatThrownBy(() -> futures.expect(4)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("wr_id 4 is awaited already");
            pending = futures.expect(5);
        }
        assertThat(pending).isCompletedExceptionally();
        assertThatThrownBy(() -> pending.get(1, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
    }
}
