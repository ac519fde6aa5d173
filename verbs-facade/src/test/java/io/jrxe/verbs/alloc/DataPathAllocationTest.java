package io.jrxe.verbs.alloc;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.transport.SimulatedTransport;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.PeerAddress;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The data path allocates nothing per work request or per packet in steady state: post_send,
 * the requester, the responder's DMA and ACK, the completer and poll_cq, measured with the
 * JVM's per-thread allocation counter over a network that allocates nothing itself.
 */
class DataPathAllocationTest {
    private static final int ROUNDS = 20_000;

    @Test
    void steadyStateWritesAndSendsAllocateNothing() throws Exception {
        InetAddress ia = InetAddress.getByName("10.9.0.1");
        InetAddress ib = InetAddress.getByName("10.9.0.2");
        DirectLink link = new DirectLink(PeerAddress.of(ia), PeerAddress.of(ib));
        EmulatedDevice da = Verbs.emulated().create(new NicContext(DeviceConfig.of("alloc-a" + System.nanoTime(), ia).withInterfaceMtu(4200))
                .transport(SimulatedTransport.of(link.a, link)));
        EmulatedDevice db = Verbs.emulated().create(new NicContext(DeviceConfig.of("alloc-b" + System.nanoTime(), ib).withInterfaceMtu(4200))
                .transport(SimulatedTransport.of(link.b, link)));
        try (Arena arena = Arena.ofConfined()) {
            DirectSide a = new DirectSide(da, arena);
            DirectSide b = new DirectSide(db, arena);
            a.connect(b, ib);
            b.connect(a, ia);

            SendWr write = new SendWr(1);
            write.opcode = WrOpcode.RDMA_WRITE;
            write.flags = SendWr.SIGNALED;
            write.sgl.add(a.memory.address(), 8192, a.mr.lkey());
            write.remoteAddr = b.memory.address();
            write.rkey = b.mr.rkey();
            SendWr send = new SendWr(1);
            send.opcode = WrOpcode.SEND;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(a.memory.address(), 64, a.mr.lkey());
            RecvWr recv = new RecvWr(1);
            recv.sgl.add(b.memory.address() + 65536, 256, b.mr.lkey());
            WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};

            Runnable round = () -> {
                try {
                    a.qp.postSend(write);
                    b.qp.postRecv(recv);
                    a.qp.postSend(send);
                    link.runUntilIdle();
                    // runUntilIdle delivered everything: both completions are there, or the data path lost one.
                    int n = 0;
                    for (int polls = 0; n < 2; polls++) {
                        if (polls == 2) {
                            throw new AssertionError("the write and the send did not both complete");
                        }
                        int got = a.cq.poll(wcs);
                        for (int i = 0; i < got; i++) {
                            if (wcs[i].status() != WcStatus.SUCCESS) {
                                throw new AssertionError(wcs[i].toString());
                            }
                        }
                        n += got;
                    }
                    if (b.cq.poll(wcs) != 1 || wcs[0].status() != WcStatus.SUCCESS) {
                        throw new AssertionError("the receive did not complete");
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            };
            for (int i = 0; i < ROUNDS; i++) {
                round.run(); // warm-up: let the JIT compile and escape-analyse the hot path
            }
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < ROUNDS; i++) {
                round.run();
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            double perWorkRequest = allocated / (3.0 * ROUNDS);
            System.out.printf("data path allocation: %d bytes over %d work requests (%.3f bytes/WR)%n", allocated,
                    3 * ROUNDS, perWorkRequest);
            // 3 x 20,000 WRs and 5 x 20,000 packets: a single object per WR or packet would be >= 16 bytes/WR.
            assertThat(perWorkRequest).isLessThan(1.0);
        } finally {
            Verbs.emulated().remove(da);
            Verbs.emulated().remove(db);
        }
    }
}
