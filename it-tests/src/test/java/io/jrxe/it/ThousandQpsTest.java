package io.jrxe.it;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.emulated.EmulatedDevice;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** 1,000 RC QP pairs between two devices on real UDP, every one moving data; prints the memory per QP after that. */
class ThousandQpsTest {
    /** 1,000 unless -Djrxe.test.qps says otherwise (docs/reliability.md quotes a run with 10,000). */
    private static final int QPS = Integer.getInteger("jrxe.test.qps", 1000);
    private static final int SIZE = 4096;

    @Test
    void everyOneOfAThousandQpsMovesData() throws Exception {
        InetAddress ia = InetAddress.getByName("127.0.3.1");
        InetAddress ib = InetAddress.getByName("127.0.3.2");
        EmulatedDevice da = Verbs.emulated().createUdp(DeviceConfig.of("kqp-a", ia));
        EmulatedDevice db = Verbs.emulated().createUdp(DeviceConfig.of("kqp-b", ib));
        try (Arena arena = Arena.ofShared()) {
            Context ca = da.open();
            Context cb = db.open();
            Pd pa = ca.allocPd();
            Pd pb = cb.allocPd();
            Cq cqa = ca.createCq(QPS * 2, null);
            Cq cqb = cb.createCq(QPS * 2, null);
            MemorySegment ma = arena.allocate((long) QPS * SIZE, 4096);
            MemorySegment mb = arena.allocate((long) QPS * SIZE, 4096);
            Mr mra = pa.regMr(ma, Access.LOCAL_WRITE);
            Mr mrb = pb.regMr(mb, Access.LOCAL_WRITE | Access.REMOTE_WRITE);

            System.gc();
            long heapBefore = usedHeap();
            List<Qp> qa = new ArrayList<>();
            List<Qp> qb = new ArrayList<>();
            QpCapabilities caps = new QpCapabilities(16, 16, 1, 1, 0);
            for (int i = 0; i < QPS; i++) {
                qa.add(pa.createQp(new QpInitAttributes(QpType.RC, cqa, cqa, null, caps, false)));
                qb.add(pb.createQp(new QpInitAttributes(QpType.RC, cqb, cqb, null, caps, false)));
            }
            for (int i = 0; i < QPS; i++) {
                connect(qa.get(i), qb.get(i), ib);
                connect(qb.get(i), qa.get(i), ia);
            }

            for (int i = 0; i < QPS; i++) {
                ma.asSlice((long) i * SIZE, SIZE).fill((byte) i);
                SendWr wr = new SendWr(1);
                wr.wrId = i;
                wr.opcode = WrOpcode.RDMA_WRITE;
                wr.flags = SendWr.SIGNALED;
                wr.sgl.add(ma.address() + (long) i * SIZE, SIZE, mra.lkey());
                wr.remoteAddr = mb.address() + (long) i * SIZE;
                wr.rkey = mrb.rkey();
                qa.get(i).postSend(wr);
            }
            WorkCompletion[] wcs = new WorkCompletion[64];
            for (int i = 0; i < wcs.length; i++) {
                wcs[i] = new WorkCompletion();
            }
            boolean[] done = new boolean[QPS];
            int completed = 0;
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (completed < QPS && System.nanoTime() < deadline) {
                int n = cqa.poll(wcs);
                for (int k = 0; k < n; k++) {
                    assertThat(wcs[k].status()).as("%s; counters a=%s b=%s", wcs[k], ca.counters(), cb.counters())
                            .isEqualTo(WcStatus.SUCCESS);
                    assertThat(done[(int) wcs[k].wrId()]).as("completed twice: " + wcs[k]).isFalse();
                    done[(int) wcs[k].wrId()] = true;
                    completed++;
                }
                if (n == 0) {
                    Thread.onSpinWait();
                }
            }
            assertThat(completed).as("completions; counters a=%s b=%s", ca.counters(), cb.counters()).isEqualTo(QPS);
            System.gc();
            long perQp = (usedHeap() - heapBefore) / (2L * QPS);
            System.out.printf("%d RC QPs per device, each having moved a message: about %d bytes of heap per QP"
                    + " (room for 16 send and 16 receive WRs of 1 SGE)%n", QPS, perQp);
            // A QP holds the WQEs its traffic needed (one here: a queue makes them as work is outstanding) and what
            // its RTR modify granted, not the device's maxima: about 3.9 KB, which this JVM's count puts at 4.7 to
            // 4.8 KB with epoll and 5.4 KB on the portable path (NIO's channels are larger). Full rings of WQEs
            // add 3.7 KB; 35 KB when every QP carried 128 responder resources and their response slots.
            assertThat(perQp).as("bytes of heap per QP").isLessThan(7_000);
            for (int i = 0; i < QPS; i++) {
                assertThat(mb.get(ValueLayout.JAVA_BYTE, (long) i * SIZE + SIZE - 1)).as("QP %d's data", i).isEqualTo((byte) i);
            }
        } finally {
            Verbs.emulated().remove(da);
            Verbs.emulated().remove(db);
        }
    }

    private static long usedHeap() {
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    private static void connect(Qp self, Qp peer, InetAddress peerAddress) throws Exception {
        self.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(Access.REMOTE_WRITE));
        self.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(GidEntry.gidOf(peerAddress), 1))
                .pathMtu(Mtu.MTU_1024).destQpn(peer.qpNum()).rqPsn(0).maxDestRdAtomic(1).minRnrTimer(12));
        self.modify(new QpAttributes().state(QpState.RTS).timeout(18).retryCnt(7).rnrRetry(7).sqPsn(0).maxRdAtomic(1));
    }
}
