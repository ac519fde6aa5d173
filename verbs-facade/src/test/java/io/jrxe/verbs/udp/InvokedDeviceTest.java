package io.jrxe.verbs.udp;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.port.shm.ShmDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two jrxe NICs whose engines the program's thread runs ({@link Progress#INVOKER}), on UDP sockets and on the
 * shared-memory wire: traffic moves while the program polls, and a target that never polls (the passive side of a
 * WRITE or READ) still answers, its standby thread running it.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"udp", "shm"})
class InvokedDeviceTest {
    @Parameter
    String wire;
    @TempDir
    Path rings;
    private final Arena arena = Arena.ofShared();
    private EmulatedDevice nicA;
    private EmulatedDevice nicB;
    private Context a;
    private Context b;
    private MemorySegment memA;
    private MemorySegment memB;
    private Mr mrA;
    private Mr mrB;
    private Cq cqA;
    private Cq cqB;
    private Qp qpA;
    private Qp qpB;

    @BeforeEach
    void connect() throws Exception {
        nicA = device("inv-a", "127.0.6.31");
        nicB = device("inv-b", "127.0.6.32");
        a = nicA.open();
        b = nicB.open();
        memA = arena.allocate(3 * 4096, 4096);
        memB = arena.allocate(3 * 4096, 4096);
        int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
        Pd pdA = a.allocPd();
        Pd pdB = b.allocPd();
        mrA = pdA.regMr(memA, access);
        mrB = pdB.regMr(memB, access);
        cqA = a.createCq(16, null);
        cqB = b.createCq(16, null);
        QpCapabilities caps = new QpCapabilities(16, 16, 1, 1, 0);
        qpA = pdA.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false));
        qpB = pdB.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
        modify(qpA, 100, qpB, 200, b);
        modify(qpB, 200, qpA, 100, a);
    }

    private EmulatedDevice device(String name, String address) throws Exception {
        DeviceConfig config = DeviceConfig.of(name, InetAddress.getByName(address));
        return wire.equals("shm") ? Verbs.emulated().createShm(new NicContext(config), new ShmDirectory(rings))
                : Verbs.emulated().createUdp(config, Progress.INVOKER);
    }

    @AfterEach
    void close() {
        nicA.close();
        nicB.close();
        arena.close();
    }

    @Test
    void anInvokedDeviceIsListedAndPublishedAsAnyOther() throws Exception {
        assertThat(nicA.progressMode()).isEqualTo(Progress.INVOKER);
        assertThat(Verbs.emulated().devices()).contains(nicA, nicB);
        assertThat(java.lang.management.ManagementFactory.getPlatformMBeanServer()
                .isRegistered(new javax.management.ObjectName("io.jrxe:type=QueuePair,device=inv-a,qpn=" + qpA.qpNum())))
                .isTrue();
    }

    @Test
    void aSendArrivesWhileBothProgramsPoll() throws Exception {
        RecvWr recv = new RecvWr(1);
        recv.sgl.add(memB.address(), 12_288, mrB.lkey());
        qpB.postRecv(recv);
        fill(memA, 9000, (byte) 3);
        SendWr send = wr(WrOpcode.SEND, 9000);
        qpA.postSend(send);
        WorkCompletion received = pollBoth();
        assertThat(received.status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(received.opcode()).isEqualTo(WcOpcode.RECV);
        assertThat(received.byteLen()).isEqualTo(9000);
        assertThat(memB.asSlice(0, 9000).mismatch(memA.asSlice(0, 9000))).isEqualTo(-1);
    }

    @Test
    void aWriteToATargetThatNeverPollsCompletes() throws Exception {
        fill(memA, 12_288, (byte) 5);
        SendWr write = wr(WrOpcode.RDMA_WRITE, 12_288);
        write.remoteAddr = memB.address();
        write.rkey = mrB.rkey();
        qpA.postSend(write);
        WorkCompletion wc = poll(cqA);
        assertThat(wc.status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(wc.opcode()).isEqualTo(WcOpcode.RDMA_WRITE);
        assertThat(memB.mismatch(memA)).isEqualTo(-1);
    }

    @Test
    void aReadFromATargetThatNeverPollsCompletes() throws Exception {
        fill(memB, 12_288, (byte) 7);
        SendWr read = wr(WrOpcode.RDMA_READ, 12_288);
        read.remoteAddr = memB.address();
        read.rkey = mrB.rkey();
        qpA.postSend(read);
        WorkCompletion wc = poll(cqA);
        assertThat(wc.status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(wc.byteLen()).isEqualTo(12_288);
        assertThat(memA.mismatch(memB)).isEqualTo(-1);
    }

    /**
     * On an invoked device the program's thread does the NIC's work, the wire included: over thousands of
     * SEND exchanges (post, send, receive, ACK, completions, polls) it allocates nothing per work request.
     */
    @Test
    void theInvokingThreadAllocatesNothingPerWorkRequest() throws Exception {
        int rounds = 20_000;
        RecvWr recv = new RecvWr(1);
        recv.sgl.add(memB.address(), 256, mrB.lkey());
        SendWr send = wr(WrOpcode.SEND, 64);
        WorkCompletion[] wcA = {new WorkCompletion()};
        WorkCompletion[] wcB = {new WorkCompletion()};
        Runnable round = () -> {
            try {
                qpB.postRecv(recv);
                qpA.postSend(send);
                boolean sent = false;
                boolean received = false;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!(sent && received)) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("a SEND did not complete within 10 s");
                    }
                    sent |= cqA.poll(wcA) > 0;
                    received |= cqB.poll(wcB) > 0;
                }
                if (wcA[0].status() != WcStatus.SUCCESS || wcB[0].status() != WcStatus.SUCCESS) {
                    throw new AssertionError(wcA[0] + " / " + wcB[0]);
                }
            } catch (VerbsException e) {
                throw new AssertionError(e);
            }
        };
        for (int i = 0; i < rounds; i++) {
            round.run(); // warm-up: let the JIT compile and escape-analyse the hot path
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        // Up to three windows: in a JVM that ran the module's other tests first, one window in a few runs measured
        // 140 bytes/WR where the others measure 0.04 (the same commit, the JIT's choices differing from run to run).
        // A path that allocates for good allocates in every window.
        double perWorkRequest = Double.MAX_VALUE;
        String allocations = "";
        for (int window = 1; window <= 3 && perWorkRequest >= 4.0; window++) {
            // A window after one that allocated is recorded, so that a failure says what allocates and where.
            try (AllocationSites sites = window > 1 ? AllocationSites.start() : null) {
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < rounds; i++) {
                    round.run();
                }
                perWorkRequest = (threads.getCurrentThreadAllocatedBytes() - before) / (2.0 * rounds);
                if (sites != null) {
                    allocations = sites.top(8);
                }
            }
            System.out.printf("invoked data path allocation (%s), window %d: %.3f bytes/WR over %d WRs%n", wire, window,
                    perWorkRequest, 2 * rounds);
        }
        // 2 x 20,000 WRs and 3 x 20,000 datagrams: one object per WR or datagram would be >= 16 bytes/WR.
        assertThat(perWorkRequest).as("what the last window allocated, sampled by JFR:%n%s", allocations).isLessThan(4.0);
    }

    private SendWr wr(WrOpcode opcode, int length) {
        SendWr wr = new SendWr(1);
        wr.opcode = opcode;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(memA.address(), length, mrA.lkey());
        return wr;
    }

    private static void fill(MemorySegment m, int length, byte seed) {
        for (int i = 0; i < length; i++) {
            m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (seed + i * 31));
        }
    }

    /** Polls A's CQ (which runs A's NIC) until a completion comes, for at most 10 s. */
    private static WorkCompletion poll(Cq cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (cq.poll(wc) == 0) {
            assertThat(System.nanoTime()).as("a completion within 10 s").isLessThan(deadline);
        }
        return wc[0];
    }

    /** Polls both CQs, as two programs would, until B has its receive and A its send completion. */
    private WorkCompletion pollBoth() {
        WorkCompletion[] wcA = {new WorkCompletion()};
        WorkCompletion[] wcB = {new WorkCompletion()};
        boolean sent = false;
        boolean received = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(sent && received)) {
            assertThat(System.nanoTime()).as("both completions within 10 s").isLessThan(deadline);
            if (!sent && cqA.poll(wcA) > 0) {
                assertThat(wcA[0].status()).isEqualTo(WcStatus.SUCCESS);
                sent = true;
            }
            if (!received && cqB.poll(wcB) > 0) {
                received = true;
            }
        }
        return wcB[0];
    }

    private static void modify(Qp qp, int myPsn, Qp peer, int peerPsn, Context peerContext) throws VerbsException {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ));
        qp.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(peerContext.queryGid(1, 1).gid(), 1))
                .pathMtu(Mtu.MTU_1024).destQpn(peer.qpNum()).rqPsn(peerPsn).maxDestRdAtomic(1).minRnrTimer(12));
        qp.modify(new QpAttributes().state(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).sqPsn(myPsn).maxRdAtomic(1));
    }
}
