package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two NICs that READ from each other at once, more than a device window's worth each way. A READ's
 * response waited for room in its NIC's window of unacknowledged requests: both windows full of READs
 * that the other NIC would answer only once it had room, every QP timed out until its retries ran out.
 */
class MutualReadsTest {
    private static final int QPS = 8;
    private static final int READS = 4;
    private static final int SIZE = 8192;

    @Test
    void nicsReadingFromEachOtherBothFinish() throws Exception {
        FixtureWire wire = new FixtureWire(5);
        EmulatedDevice da = wire.device(DeviceConfig.of("mutual-a-" + System.nanoTime(), InetAddress.getByName("10.6.0.1")));
        EmulatedDevice db = wire.device(DeviceConfig.of("mutual-b-" + System.nanoTime(), InetAddress.getByName("10.6.0.2")));
        try (Arena arena = Arena.ofShared(); Context a = da.open(); Context b = db.open()) {
            Pd pdA = a.allocPd();
            Pd pdB = b.allocPd();
            MemorySegment memA = arena.allocate((long) SIZE * READS * QPS * 2, 4096);
            MemorySegment memB = arena.allocate((long) SIZE * READS * QPS * 2, 4096);
            int access = Access.LOCAL_WRITE | Access.REMOTE_READ;
            Mr mrA = pdA.regMr(memA, access);
            Mr mrB = pdB.regMr(memB, access);
            Cq cqA = a.createCq(QPS * READS + 1, null);
            Cq cqB = b.createCq(QPS * READS + 1, null);
            QpCapabilities caps = new QpCapabilities(READS, 1, 1, 1, 0);
            Qp[] qa = new Qp[QPS];
            Qp[] qb = new Qp[QPS];
            for (int i = 0; i < QPS; i++) {
                qa[i] = pdA.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false));
                qb[i] = pdB.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
                FixtureWire.connectTo(new QpPeer(qb[i].qpNum(), 0, b.queryGid(1, 1).gid())).readAtomic(READS, READS).apply(qa[i]);
                FixtureWire.connectTo(new QpPeer(qa[i].qpNum(), 0, a.queryGid(1, 1).gid())).readAtomic(READS, READS).apply(qb[i]);
            }
            for (int i = 0; i < QPS; i++) {
                for (int n = 0; n < READS; n++) {
                    long slot = (long) SIZE * (i * READS + n);
                    qa[i].postSend(read(memA, mrA, slot, memB.address() + slot + (long) SIZE * READS * QPS, mrB.rkey()));
                    qb[i].postSend(read(memB, mrB, slot, memA.address() + slot + (long) SIZE * READS * QPS, mrA.rkey()));
                }
            }
            WorkCompletion[] wcs = new WorkCompletion[16];
            for (int i = 0; i < wcs.length; i++) {
                wcs[i] = new WorkCompletion();
            }
            int[] done = {0};
            boolean all = wire.runUntil(() -> {
                for (Cq cq : new Cq[] {cqA, cqB}) {
                    int n = cq.poll(wcs);
                    for (int i = 0; i < n; i++) {
                        assertThat(wcs[i].status()).as("READ wr_id %d", wcs[i].wrId()).isEqualTo(WcStatus.SUCCESS);
                    }
                    done[0] += n;
                }
            }, () -> done[0] == 2 * QPS * READS, 10_000_000_000L);
            assertThat(all).as("READs completed: %d of %d", done[0], 2 * QPS * READS).isTrue();
            assertThat(a.counters().get("completer_retry_err")).isZero();
            assertThat(b.counters().get("completer_retry_err")).isZero();
        } finally {
            wire.close();
        }
    }

    private static SendWr read(MemorySegment local, Mr mr, long offset, long remoteAddr, int rkey) {
        SendWr wr = new SendWr(1);
        wr.wrId = offset;
        wr.opcode = WrOpcode.RDMA_READ;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(local.address() + offset, SIZE, mr.lkey());
        wr.remoteAddr = remoteAddr;
        wr.rkey = rkey;
        return wr;
    }
}
