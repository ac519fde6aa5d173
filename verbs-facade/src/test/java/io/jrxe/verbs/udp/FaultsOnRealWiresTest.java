package io.jrxe.verbs.udp;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.cc.CongestionControlChoice;
import io.jrxe.verbs.Access;
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
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.fault.FaultSpec;
import io.jrxe.wire.port.shm.ShmDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each fault of --faults done between two jrxe NICs in one JVM (127.0.37.x), on real loopback UDP and on the
 * shared-memory wire: the peer meets it (its counters, a resend, a status), the faulty NIC counts it, the capture of
 * the NIC that did it says what it did, and RC still delivers every byte.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"udp", "shm"})
class FaultsOnRealWiresTest {
    @Parameter
    String wire;
    @TempDir
    Path rings;
    private static final AtomicInteger PAIRS = new AtomicInteger();
    private static final int MTU = 1024;
    /**
     * 4.096 us x 2^14: a lost packet is sent again after about 67 ms (spread by up to half), 8 tries in all, so that a
     * busy machine (a whole build's tests at once) starves no QP into RETRY_EXC_ERR.
     */
    private static final int ACK_TIMEOUT = 14;
    private static final int OPCODE_ACK = 0x11;
    private static final int OPCODE_WRITE_MIDDLE = 0x07;

    private final Arena arena = Arena.ofShared();
    private final List<EmulatedDevice> devices = new ArrayList<>();

    /** One packet a port showed its tap. */
    record Frame(PacketTap.Direction direction, int opcode, int qpn, int length, String comment) {
    }

    /** A NIC with a connected RC QP, its memory and the frames its capture saw. */
    final class Side {
        final EmulatedDevice device;
        final Context ctx;
        final Pd pd;
        final Cq cq;
        final MemorySegment memory = arena.allocate(128 * 1024, 4096);
        final Mr mr;
        final List<Qp> qps = new ArrayList<>();
        final List<Frame> frames = java.util.Collections.synchronizedList(new ArrayList<>());

        Side(String name, String address, String faults) throws Exception {
            this(name, address, faults, false, "none");
        }

        /** With ECN-capable sockets when {@code ecn}, and the congestion control {@code cc} names. */
        Side(String name, String address, String faults, boolean ecn, String cc) throws Exception {
            DeviceConfig config = DeviceConfig.of(name, InetAddress.getByName(address)).withFaults(FaultSpec.parse(faults))
                    .withEcnCapable(ecn);
            NicContext context = new NicContext(config).congestionControl(CongestionControlChoice.named(cc));
            device = wire.equals("shm") ? Verbs.emulated().createShm(context, new ShmDirectory(rings))
                    : Verbs.emulated().createUdp(context, Progress.NIC_THREAD);
            devices.add(device);
            ctx = device.open();
            pd = ctx.allocPd();
            cq = ctx.createCq(1024, null);
            mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            device.nic().port().tap((d, s, t, sp, dp, id, roce, off, len, ts, comment) ->
                    frames.add(new Frame(d, roce.get(off) & 0xFF, roce.getInt(off + 4) & 0xFFFFFF, len, comment)));
        }

        Qp qp(int index) {
            return qps.get(index);
        }

        long counter(String name) throws VerbsException {
            Long v = ctx.counters().get(name);
            return v == null ? 0 : v;
        }

        /** The counter, once it has reached {@code n} (within 10 s). */
        long awaitCounter(String name, long n) throws VerbsException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            long v = counter(name);
            while (v < n && System.nanoTime() < deadline) {
                Thread.onSpinWait();
                v = counter(name);
            }
            return v;
        }

        /** The frames whose comment contains the text, once there are {@code n} of them (within 10 s). */
        List<Frame> awaitCommented(String containing, int n) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            List<Frame> found = commented(containing);
            while (found.size() < n && System.nanoTime() < deadline) {
                Thread.onSpinWait();
                found = commented(containing);
            }
            return found;
        }

        List<Frame> commented(String containing) {
            synchronized (frames) {
                return frames.stream().filter(f -> f.comment != null && f.comment.contains(containing)).toList();
            }
        }
    }

    @AfterEach
    void close() {
        for (EmulatedDevice d : devices) {
            d.close();
        }
        arena.close();
    }

    /** A on 127.0.37.(2n+1) with {@code faultsA}, B on the next with {@code faultsB}; {@code qps} RC QPs connected. */
    private Side[] pair(String faultsA, String faultsB, int qps) throws Exception {
        int n = PAIRS.incrementAndGet();
        return connected(new Side("faults-a" + n, "127.0.37." + (2 * n + 1), faultsA),
                new Side("faults-b" + n, "127.0.37." + (2 * n + 2), faultsB), qps);
    }

    private static Side[] connected(Side a, Side b, int qps) throws Exception {
        QpCapabilities caps = new QpCapabilities(64, 64, 1, 1, 0);
        for (int i = 0; i < qps; i++) {
            a.qps.add(a.pd.createQp(new QpInitAttributes(QpType.RC, a.cq, a.cq, null, caps, false)));
            b.qps.add(b.pd.createQp(new QpInitAttributes(QpType.RC, b.cq, b.cq, null, caps, false)));
        }
        for (int i = 0; i < qps; i++) {
            int access = Access.REMOTE_WRITE | Access.REMOTE_READ;
            QpConnect.to(new QpPeer(b.qp(i).qpNum(), 0, b.ctx.queryGid(1, 1).gid())).accessFlags(access)
                    .timeout(ACK_TIMEOUT).apply(a.qp(i));
            QpConnect.to(new QpPeer(a.qp(i).qpNum(), 0, a.ctx.queryGid(1, 1).gid())).accessFlags(access)
                    .timeout(ACK_TIMEOUT).apply(b.qp(i));
        }
        return new Side[] {a, b};
    }

    /** {@code count} RDMA WRITEs of {@code length} bytes from A's memory to B's on QP {@code qp}, all posted at once. */
    private static List<WorkCompletion> writes(Side a, Side b, int qp, int count, int length) throws Exception {
        fill(a.memory, count * length, 1);
        for (int i = 0; i < count; i++) {
            SendWr wr = new SendWr(1);
            wr.opcode = WrOpcode.RDMA_WRITE;
            wr.flags = SendWr.SIGNALED;
            wr.wrId = i;
            wr.sgl.add(a.memory.address() + (long) i * length, length, a.mr.lkey());
            wr.remoteAddr = b.memory.address() + (long) i * length;
            wr.rkey = b.mr.rkey();
            a.qp(qp).postSend(wr);
        }
        return poll(a.cq, count);
    }

    /** Every WR succeeded, once each, and B's memory holds what A wrote. */
    private static void assertDelivered(List<WorkCompletion> wcs, Side a, Side b, int bytes) {
        assertThat(wcs).allSatisfy(wc -> assertThat(wc.status()).as(wc.toString()).isEqualTo(WcStatus.SUCCESS));
        assertThat(wcs.stream().map(WorkCompletion::wrId).distinct().count()).isEqualTo(wcs.size());
        assertThat(b.memory.asSlice(0, bytes).mismatch(a.memory.asSlice(0, bytes))).as("first wrong byte").isEqualTo(-1);
    }

    private static void fill(MemorySegment m, int length, int seed) {
        for (int i = 0; i < length; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, (byte) (seed + i * 31 + (i >>> 8)));
        }
    }

    private static List<WorkCompletion> poll(Cq cq, int count) {
        List<WorkCompletion> got = new ArrayList<>();
        WorkCompletion[] wc = {new WorkCompletion()};
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (got.size() < count) {
            assertThat(System.nanoTime()).as(got.size() + " of " + count + " completions within 10 s").isLessThan(deadline);
            if (cq.poll(wc) > 0) {
                got.add(new WorkCompletion(wc[0]));
            } else {
                Thread.onSpinWait();
            }
        }
        return got;
    }

    /**
     * A switch's marks without a switch: B's faults mark CE on a fifth of what arrives ECN-capable, B's notification
     * point answers with CNPs, and A's DCQCN cuts its rate for each; every byte still arrives.
     */
    @Test
    void marksOnArrivalBringCnpsBackToADcqcnSender() throws Exception {
        int n = PAIRS.incrementAndGet();
        Side a = new Side("faults-a" + n, "127.0.37." + (2 * n + 1), "none", true, "dcqcn");
        Side b = new Side("faults-b" + n, "127.0.37." + (2 * n + 2), "seed=5; mark,p=0.2", true, "none");
        connected(a, b, 1);
        List<WorkCompletion> wcs = writes(a, b, 0, 20, 4 * MTU);
        assertDelivered(wcs, a, b, 20 * 4 * MTU);
        long marked = b.counter("jrxe_fault_rx_marked");
        assertThat(marked).as("B marked some of 80 packets").isPositive().isLessThan(80);
        assertThat(b.counter("jrxe_rcvd_ecn_ce")).as("B's NIC saw each mark").isEqualTo(marked);
        long cnps = b.awaitCounter("jrxe_sent_cnp", 1);
        assertThat(cnps).as("at least the first mark is answered; at most one CNP per mark").isBetween(1L, marked);
        assertThat(a.awaitCounter("jrxe_rcvd_cnp", cnps)).isEqualTo(cnps);
        assertThat(a.awaitCounter("jrxe_cc_rate_decreased", 1)).as("DCQCN cut A's rate").isPositive();
        assertThat(b.commented("marked CE")).as("B's capture says which packets it marked").hasSize((int) marked);
    }

    @Test
    void lossOnSendIsRecoveredByResends() throws Exception {
        Side[] p = pair("loss=0.2,seed=11", "none", 1);
        List<WorkCompletion> wcs = writes(p[0], p[1], 0, 20, 4 * MTU);
        assertDelivered(wcs, p[0], p[1], 20 * 4 * MTU);
        long lost = p[0].counter("jrxe_fault_tx_dropped");
        assertThat(lost).isPositive();
        assertThat(p[0].commented("fault on send: lost")).hasSize((int) lost)
                .allSatisfy(f -> assertThat(f.direction).isEqualTo(PacketTap.Direction.DROPPED));
        assertThat(p[0].counter("completer_retry_err") + p[1].counter("out_of_seq_request")).as("the peer noticed").isPositive();
    }

    @Test
    void lossOnReceiveDropsBeforeTheNicSeesThePacket() throws Exception {
        Side[] p = pair("none", "loss=0.2,dir=recv,seed=12", 1);
        assertDelivered(writes(p[0], p[1], 0, 20, 4 * MTU), p[0], p[1], 20 * 4 * MTU);
        long lost = p[1].counter("jrxe_fault_rx_dropped");
        assertThat(lost).isPositive();
        assertThat(p[1].counter("jrxe_fault_tx_dropped")).isZero();
        assertThat(p[1].commented("fault on recv: lost")).hasSize((int) lost)
                .allSatisfy(f -> assertThat(f.direction).isEqualTo(PacketTap.Direction.DROPPED));
        assertThat(p[0].counter("completer_retry_err") + p[1].counter("out_of_seq_request")).isPositive();
    }

    @Test
    void duplicatesReachThePeerAsDuplicateRequests() throws Exception {
        Side[] p = pair("none", "dup=0.5,dir=recv,seed=13", 1);
        assertDelivered(writes(p[0], p[1], 0, 10, 4 * MTU), p[0], p[1], 10 * 4 * MTU);
        long dups = p[1].counter("jrxe_fault_rx_duplicated");
        assertThat(dups).isPositive();
        assertThat(p[1].counter("duplicate_request")).isGreaterThanOrEqualTo(dups);
        assertThat(p[1].commented("fault on recv: duplicated")).hasSize((int) dups)
                .allSatisfy(f -> assertThat(f.direction).isEqualTo(PacketTap.Direction.RECEIVED));
    }

    @Test
    void reorderedPacketsArriveOutOfSequence() throws Exception {
        Side[] p = pair("reorder=0.3:2ms,seed=14,dir=send", "none", 1);
        assertDelivered(writes(p[0], p[1], 0, 10, 8 * MTU), p[0], p[1], 10 * 8 * MTU);
        long reordered = p[0].counter("jrxe_fault_tx_reordered");
        assertThat(reordered).isPositive();
        assertThat(p[1].counter("out_of_seq_request")).as("a packet passed by later ones leaves a gap").isPositive();
        // A held resend may leave after its first copy's ACK completed the WRITE: the capture shows it when it leaves.
        assertThat(p[0].awaitCommented("reordered: held", (int) reordered)).hasSize((int) reordered)
                .allSatisfy(f -> assertThat(f.direction).isEqualTo(PacketTap.Direction.SENT));
    }

    @Test
    void aDelayHoldsEveryPacket() throws Exception {
        Side[] p = pair("delay=3ms", "none", 1);
        long start = System.nanoTime();
        assertDelivered(writes(p[0], p[1], 0, 1, 64), p[0], p[1], 64);
        assertThat(System.nanoTime() - start).as("a WRITE's round trip with its request held 3 ms").isGreaterThanOrEqualTo(3_000_000);
        assertThat(p[0].counter("jrxe_fault_tx_delayed")).isPositive();
        assertThat(p[0].commented("fault on send: held 3000us")).isNotEmpty();
    }

    @Test
    void corruptionOnSendIsDroppedByThePeersIcrcCheck() throws Exception {
        Side[] p = pair("corrupt=0.2,seed=15,dir=send", "none", 1);
        assertDelivered(writes(p[0], p[1], 0, 20, 4 * MTU), p[0], p[1], 20 * 4 * MTU);
        long corrupted = p[0].counter("jrxe_fault_tx_corrupted");
        assertThat(corrupted).isPositive();
        // A corrupted resend can still be on its way when the ACK of its first copy has completed the WRITE.
        assertThat(p[1].awaitCounter("jrxe_drop_bad_icrc", corrupted)).isEqualTo(corrupted);
        assertThat(p[0].counter("jrxe_fault_rx_corrupted")).as("dir=send").isZero();
        assertThat(p[0].commented("fault on send: bit")).hasSize((int) corrupted)
                .allSatisfy(f -> assertThat(f.direction).isEqualTo(PacketTap.Direction.SENT));
        assertThat(p[1].commented("bad ICRC")).hasSize((int) corrupted);
    }

    @Test
    void corruptionOnReceiveIsDroppedAsTheIcrcCheckWould() throws Exception {
        Side[] p = pair("none", "corrupt=0.2,dir=recv,seed=16", 1);
        assertDelivered(writes(p[0], p[1], 0, 20, 4 * MTU), p[0], p[1], 20 * 4 * MTU);
        long corrupted = p[1].counter("jrxe_fault_rx_corrupted");
        assertThat(corrupted).isPositive();
        assertThat(p[1].counter("jrxe_drop_bad_icrc")).isEqualTo(corrupted);
        assertThat(p[1].commented("fault on recv: bit")).hasSize((int) corrupted).allSatisfy(f -> {
            assertThat(f.direction).isEqualTo(PacketTap.Direction.DROPPED);
            assertThat(f.comment).endsWith("; dropped: bad ICRC");
        });
    }

    @Test
    void theThirdPacketOfEveryMessageIsDroppedOnceAndResent() throws Exception {
        Side[] p = pair("drop,nth=3", "none", 1);
        assertDelivered(writes(p[0], p[1], 0, 10, 4 * MTU), p[0], p[1], 10 * 4 * MTU);
        assertThat(p[0].counter("jrxe_fault_tx_dropped")).as("once per message, not its resends").isEqualTo(10);
        assertThat(p[0].commented("rule 1 'drop,nth=3'")).hasSize(10).allSatisfy(f -> {
            assertThat(f.opcode).isEqualTo(OPCODE_WRITE_MIDDLE);
            assertThat(f.direction).isEqualTo(PacketTap.Direction.DROPPED);
        });
    }

    @Test
    void theAcksOfOneQpAreDroppedAndTheOtherQpsAreNot() throws Exception {
        Side[] p = pair("none", "drop,op=ack,qp=0x12,count=3", 2);
        assertThat(p[0].qp(1).qpNum()).as("a new device numbers its QPs from 0x11").isEqualTo(0x12);
        List<WorkCompletion> first = writes(p[0], p[1], 0, 4, MTU);
        List<WorkCompletion> second = writes(p[0], p[1], 1, 4, MTU);
        assertDelivered(second, p[0], p[1], 4 * MTU);
        assertThat(first).allSatisfy(wc -> assertThat(wc.status()).isEqualTo(WcStatus.SUCCESS));
        assertThat(p[1].counter("jrxe_fault_tx_dropped")).isEqualTo(3);
        assertThat(p[1].commented("fault on send: dropped (rule 1 'drop,op=ack,qp=0x12,count=3')")).hasSize(3)
                .allSatisfy(f -> {
                    assertThat(f.opcode).isEqualTo(OPCODE_ACK);
                    assertThat(f.qpn).isEqualTo(0x12);
                });
        assertThat(p[0].counter("completer_retry_err")).as("QP 0x12 timed out waiting for its ACK").isPositive();
    }

    @Test
    void acksDelayedPastTheTimeoutMakeTheRequesterSendAgain() throws Exception {
        // The ACK timeout is about 67 ms (spread by up to half): an ACK held 150 ms comes after the resend.
        Side[] p = pair("none", "delay:150ms,op=ack,count=1", 1);
        assertDelivered(writes(p[0], p[1], 0, 1, 2 * MTU), p[0], p[1], 2 * MTU);
        assertThat(p[1].counter("jrxe_fault_tx_delayed")).isEqualTo(1);
        assertThat(p[0].counter("completer_retry_err")).isPositive();
        assertThat(p[1].counter("duplicate_request")).isPositive();
        // The held ACK leaves after the resend's ACK completed the WRITE: the capture shows it when it is sent.
        assertThat(p[1].awaitCommented("fault on send: held 150000us (rule 1 'delay:150ms,op=ack,count=1')", 1))
                .allSatisfy(f -> assertThat(f.opcode).isEqualTo(OPCODE_ACK));
    }

    @Test
    void anAckTurnedIntoAnRnrNakMakesTheRequesterWaitAndSendAgain() throws Exception {
        Side[] p = pair("none", "rnr:1,count=2", 1);
        assertDelivered(writes(p[0], p[1], 0, 3, MTU), p[0], p[1], 3 * MTU);
        assertThat(p[1].counter("jrxe_fault_tx_rnr")).isEqualTo(2);
        assertThat(p[0].counter("rcvd_rnr_err")).isEqualTo(2);
        assertThat(p[1].commented("ACK turned into an RNR NAK, timer 1")).hasSize(2)
                .allSatisfy(f -> assertThat(f.direction).isEqualTo(PacketTap.Direction.SENT));
    }

    @Test
    void anAckTurnedIntoAnRnrNakOnReceive() throws Exception {
        Side[] p = pair("rnr:1,dir=recv,count=1", "none", 1);
        assertDelivered(writes(p[0], p[1], 0, 2, MTU), p[0], p[1], 2 * MTU);
        assertThat(p[0].counter("jrxe_fault_rx_rnr")).isEqualTo(1);
        assertThat(p[0].counter("rcvd_rnr_err")).isEqualTo(1);
        assertThat(p[0].commented("fault on recv: ACK turned into an RNR NAK")).hasSize(1);
    }

    @Test
    void aTruncatedMiddlePacketIsAnInvalidRequest() throws Exception {
        Side[] p = pair("truncate:8,op=RC_RDMA_WRITE_MIDDLE,count=1", "none", 1);
        List<WorkCompletion> wcs = writes(p[0], p[1], 0, 1, 4 * MTU);
        assertThat(wcs.getFirst().status()).as("the responder refuses a middle packet shorter than the MTU")
                .isEqualTo(WcStatus.REM_INV_REQ_ERR);
        assertThat(p[0].counter("jrxe_fault_tx_truncated")).isEqualTo(1);
        assertThat(p[0].commented("truncated by 8 bytes")).hasSize(1).allSatisfy(f -> {
            assertThat(f.direction).isEqualTo(PacketTap.Direction.SENT);
            assertThat(f.length).isEqualTo(12 + MTU + 4 - 8);
        });
    }

    @Test
    void aDuplicateRuleSendsSelectedPacketsTwice() throws Exception {
        Side[] p = pair("dup,op=write,count=5", "none", 1);
        assertDelivered(writes(p[0], p[1], 0, 5, 2 * MTU), p[0], p[1], 5 * 2 * MTU);
        assertThat(p[0].counter("jrxe_fault_tx_duplicated")).isEqualTo(5);
        assertThat(p[1].counter("duplicate_request")).isGreaterThanOrEqualTo(5);
        assertThat(p[0].commented("duplicated (rule 1 'dup,op=write,count=5')")).hasSize(10);
        assertThat(p[0].commented("duplicated (rule 1 'dup,op=write,count=5'): the first copy")).hasSize(5);
    }
}
