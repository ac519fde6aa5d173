package io.jrxe.verbs.emulated;

import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.VerbsException;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.wire.port.fault.FaultyPort;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * Runs every kind of work request through a freshly made device, QP to QP on the device itself, before the
 * device meets its peer ({@link EmulatedDevice#warmUp()}). A JVM that has just started loads and links the code
 * of the data path the first time a packet takes it, and on a busy machine that can take longer than a real
 * peer's retransmission timeout (ibv_rc_pingpong gives up after 7 retries of 67 ms): without a warm-up, the
 * first packets of a program could make the peer's QP fail, or a first operation's status depend on it. The
 * warm-up's QPs are gone when it returns, so the program's own get QP numbers after them.
 *
 * <p>A program may warm its own waiting code too ({@link Waits}), and a benchmark may go on for a while and
 * until the JIT's compilers are quiet ({@link Options}).
 */
public final class Warmup {
    /** How the warm-up waits for its completions: polled, and by a completion channel's event. */
    public interface Waits {
        /** Polls {@code cq} until at least one completion is there; throws when none comes in time. */
        int polled(Cq cq, WorkCompletion[] wcs);

        /** Waits for {@code cq}'s event on {@code channel}, re-arms it and polls; throws when none comes in time. */
        int byEvent(Cq cq, CompChannel channel, WorkCompletion[] wcs);
    }

    /**
     * How long the warm-up runs: its rounds go on for {@code jitMillis} (a benchmark's warm-up: on a 2-core machine
     * the JIT compiling the data path during the first seconds of a measurement takes a core from the NIC), and past
     * that while {@code compilersBusy} says so, up to three times as long (null: not at all).
     */
    public record Options(int jitMillis, LongPredicate compilersBusy, Waits waits) {
        /** A few rounds, waited for by the library's own waits: what {@link EmulatedDevice#warmUp()} runs. */
        public static final Options DEFAULT = new Options(0, null, LibraryWaits.INSTANCE);
    }
    private static final long DEADLINE_NANOS = 5_000_000_000L;
    /** The rounds a warm-up runs at least (all of a default one). */
    public static final int ROUNDS = 8;
    /** A bound only: a benchmark's warm-up ends by time (and the JIT's activity), not by its count of rounds. */
    private static final int MAX_JIT_ROUNDS = 100_000;
    /** What each round posts on its RC QP. */
    private static final WrOpcode[] RC_WORK = {WrOpcode.SEND, WrOpcode.RDMA_WRITE, WrOpcode.SEND, WrOpcode.SEND_WITH_IMM,
        WrOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ, WrOpcode.ATOMIC_FETCH_AND_ADD, WrOpcode.ATOMIC_CMP_AND_SWP};
    /**
     * The first of them go unsignaled, as a bandwidth test's do between its signaled ones (cq_mod): after a warm-up
     * of signaled work only, C2 compiles the data path for WRs that all complete, and throws that code away (an
     * uncommon trap in SendWqe.signaled, the completer and the CQ) at the test's first unsignaled WR, to compile it
     * again during the measurement.
     */
    private static final int UNSIGNALED = 2;
    /** The wr_id of every warm-up work request, which each of its completions must carry back. */
    private static final long WR_ID = 0x77a4;

    private Warmup() {
    }

    /**
     * Best effort: a device that cannot warm up still works, only its first packets are slower. Each round ends with
     * a SEND waited for on a completion channel, so that a program that sleeps on CQ events does not run that path
     * through the interpreter either.
     *
     * @return the rounds in which every completion came (0 when the device could not warm up)
     */
    public static int run(EmulatedDevice device, Context ctx, Options options) {
        if (!device.rnic().config().onRocePort()) {
            // Paired with another device on one address by UDP ports, it sends every packet to that device: its own
            // GID leads there, so QP to QP on itself would be QP to QP on the peer.
            return 0;
        }
        FaultyPort faulty = device.nic().port() instanceof FaultyPort f ? f : null;
        if (faulty != null) {
            faulty.suspend(true);
        }
        try {
            return rounds(device, ctx, options);
        } finally {
            if (faulty != null) {
                faulty.suspend(false);
            }
        }
    }

    /** The rounds themselves, through the device's port with its faults stopped. */
    private static int rounds(EmulatedDevice device, Context ctx, Options options) {
        int jitMillis = options.jitMillis();
        boolean untilQuiet = options.compilersBusy() != null;
        int completed = 0;
        try (Arena arena = Arena.ofShared()) {
            Pd pd = ctx.allocPd();
            Cq cq = ctx.createCq(256, null);
            MemorySegment memory = arena.allocate(64 * 1024, 4096);
            Mr mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC);
            QpCapabilities caps = new QpCapabilities(32, 32, 1, 1, 0);
            Qp a = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, caps, false));
            Qp b = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, caps, false));
            Qp ud = pd.createQp(new QpInitAttributes(QpType.UD, cq, cq, null, caps, false));
            byte[] gid = device.rnic().port().gid(device.rnic().port().defaultGidIndex()).gid();
            int sgid = device.rnic().port().defaultGidIndex();
            connect(a, b.qpNum(), gid, sgid, device);
            connect(b, a.qpNum(), gid, sgid, device);
            QpConnect.datagram(0x11111111).apply(ud);
            Ah ah = pd.createAh(AddressVector.to(gid, sgid));
            // A pair whose CQ has a completion channel: the path of a program that sleeps on CQ events (pingpong -e).
            CompChannel channel = ctx.createCompChannel();
            Cq eventCq = ctx.createCq(16, channel);
            Qp c = pd.createQp(new QpInitAttributes(QpType.RC, eventCq, eventCq, null, caps, false));
            Qp d = pd.createQp(new QpInitAttributes(QpType.RC, eventCq, eventCq, null, caps, false));
            connect(c, d.qpNum(), gid, sgid, device);
            connect(d, c.qpNum(), gid, sgid, device);
            long start = System.nanoTime();
            long deadline = start + DEADLINE_NANOS;
            long jitEnd = start + jitMillis * 1_000_000L;
            // Past its time a benchmark's warm-up may go on while the JIT still compiles, up to three times as long.
            long settleEnd = untilQuiet ? start + 3L * jitMillis * 1_000_000L : jitEnd;
            LongPredicate jitBusy = options.compilersBusy();
            int rounds = jitMillis > 0 ? MAX_JIT_ROUNDS : ROUNDS;
            WorkCompletion[] wcs = new WorkCompletion[16];
            for (int i = 0; i < wcs.length; i++) {
                wcs[i] = new WorkCompletion();
            }
            // The program's own waiting code, busy-polled and by events: warmed here, it is compiled before its
            // work starts instead of during its first few hundred messages.
            Waits waits = options.waits();
            RecvWr recv = new RecvWr(1);
            recv.wrId = WR_ID;
            SendWr send = new SendWr(1);
            int[] qpns = {a.qpNum(), b.qpNum(), ud.qpNum(), c.qpNum(), d.qpNum()};
            long base = memory.address();
            try {
                for (int round = 0; round < rounds; round++) {
                    long now = System.nanoTime();
                    boolean due = round < ROUNDS || now < jitEnd || (jitBusy != null && now < settleEnd && jitBusy.test(now));
                    if (now >= deadline || !due) {
                        break;
                    }
                    boolean succeeded = jitMillis == 0
                            || sendsBeforeTheirReceives(device, a, b, cq, waits, recv, send, base, mr.lkey(), wcs, qpns,
                                    deadline);
                    int expected = 0;
                    recv.sgl.clear();
                    recv.sgl.add(base + 32768, 8192, mr.lkey());
                    b.postRecv(recv);
                    b.postRecv(recv);
                    b.postRecv(recv);
                    recv.sgl.clear();
                    recv.sgl.add(base + 49152, 2048, mr.lkey());
                    ud.postRecv(recv);
                    expected += 4; // the three receives on b and the one on ud
                    for (int i = 0; i < RC_WORK.length; i++) {
                        WrOpcode op = RC_WORK[i];
                        send.clear();
                        send.wrId = WR_ID;
                        send.opcode = op;
                        boolean unsignaled = i < UNSIGNALED;
                        send.flags = unsignaled ? 0 : SendWr.SIGNALED;
                        boolean atomic = op == WrOpcode.ATOMIC_FETCH_AND_ADD || op == WrOpcode.ATOMIC_CMP_AND_SWP;
                        int length = atomic ? 8 : op == WrOpcode.SEND ? 64 : 4096 + 100;
                        send.sgl.add(base, length, mr.lkey());
                        send.remoteAddr = base + 16384;
                        send.rkey = mr.rkey();
                        send.compareAdd = 1;
                        a.postSend(send);
                        if (!unsignaled) {
                            expected++;
                        }
                    }
                    send.clear();
                    send.wrId = WR_ID;
                    send.opcode = WrOpcode.SEND;
                    send.flags = SendWr.SIGNALED;
                    send.sgl.add(base, 256, mr.lkey());
                    send.ahHandle = ah.handle();
                    send.remoteQpn = ud.qpNum();
                    send.remoteQkey = 0x11111111;
                    ud.postSend(send);
                    expected++;
                    succeeded &= awaitPolled(cq, waits, wcs, qpns, expected);
                    if (exchangeByEvents(c, d, eventCq, channel, waits, recv, send, base, mr.lkey(), wcs, qpns) && succeeded) {
                        completed++;
                    }
                }
            } catch (RuntimeException timedOut) {
                // A wait passed without its completion: the warm-up ends, and its resources are closed below all the same.
            }
            d.close();
            c.close();
            eventCq.close();
            channel.close();
            ah.close();
            ud.close();
            b.close();
            a.close();
            mr.close();
            cq.close();
            pd.close();
        } catch (VerbsException | RuntimeException e) {
            // Best effort, see above.
        }
        return completed;
    }

    /**
     * A benchmark's warm-up: two SENDs to a QP with no receive posted, whose receives come once the first SEND's RNR
     * NAK came back. The responder answers the first with an RNR NAK and the second with a PSN sequence NAK; the
     * requester waits out the RNR timer and sends both again. A send-bw's receiver runs out of receives now and then,
     * and C2, having compiled the data path without these branches, would throw that code away (uncommon traps in the
     * completer, the requester and the responder) at the first RNR NAK and compile it again during the measurement,
     * on a core the NICs need. Counters taken after the warm-up (the tools' --counters) do not show these NAKs.
     */
    private static boolean sendsBeforeTheirReceives(EmulatedDevice device, Qp a, Qp b, Cq cq, Waits waits, RecvWr recv,
                                                 SendWr send, long base, int lkey, WorkCompletion[] wcs, int[] qpns,
                                                 long deadline) throws VerbsException {
        Counters counters = device.rnic().counters();
        long naksBefore = counters.get(Counter.RCVD_RNR_ERR);
        for (int i = 0; i < 2; i++) {
            send.clear();
            send.wrId = WR_ID;
            send.opcode = WrOpcode.SEND;
            send.flags = i == 0 ? 0 : SendWr.SIGNALED;
            send.sgl.add(base, 64, lkey);
            a.postSend(send);
        }
        while (counters.get(Counter.RCVD_RNR_ERR) == naksBefore && System.nanoTime() < deadline) {
            if (device.progress() == 0) {
                Thread.yield(); // the NIC's own thread sends the NAK
            }
        }
        recv.sgl.clear();
        recv.sgl.add(base + 32768, 8192, lkey);
        b.postRecv(recv);
        b.postRecv(recv);
        return awaitPolled(cq, waits, wcs, qpns, 3); // the signaled SEND and the two receives
    }

    /** Polls until {@code expected} completions came; whether all succeeded and were the warm-up's own. */
    private static boolean awaitPolled(Cq cq, Waits waits, WorkCompletion[] wcs, int[] qpns, int expected) {
        boolean succeeded = true;
        for (int left = expected; left > 0; ) {
            int n = waits.polled(cq, wcs);
            succeeded &= allOurs(wcs, n, qpns);
            left -= n;
        }
        return succeeded;
    }

    /**
     * One SEND from c to d, waited for as ibv_rc_pingpong -e does (an event, re-arm, poll, until both completions
     * came), by the waiter's own code. A wait that times out throws, which ends the warm-up.
     */
    private static boolean exchangeByEvents(Qp c, Qp d, Cq eventCq, CompChannel channel, Waits waits, RecvWr recv,
                                            SendWr send, long base, int lkey, WorkCompletion[] wcs, int[] qpns)
            throws VerbsException {
        recv.sgl.clear();
        recv.sgl.add(base + 32768, 8192, lkey);
        d.postRecv(recv);
        eventCq.requestNotify(false);
        send.clear();
        send.wrId = WR_ID;
        send.opcode = WrOpcode.SEND;
        send.flags = SendWr.SIGNALED;
        send.sgl.add(base, 64, lkey);
        c.postSend(send);
        int expected = 2;
        boolean succeeded = true;
        while (expected > 0) {
            int n = waits.byEvent(eventCq, channel, wcs);
            succeeded &= allOurs(wcs, n, qpns);
            expected -= n;
        }
        return succeeded;
    }

    /**
     * Whether every completion succeeded and is the warm-up's own: its wr_id and the number of one of its QPs. The
     * programs read those two fields of every completion, so reading them here has the JIT compile their accessors
     * before their work: compiled during a ping-pong's first exchanges instead, each would stall both sides
     * 0.2-0.9 ms on two cores.
     */
    private static boolean allOurs(WorkCompletion[] wcs, int n, int[] qpns) {
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = wcs[i];
            if (wc.status() != WcStatus.SUCCESS || wc.wrId() != WR_ID || !contains(qpns, wc.qpNum())) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(int[] values, int value) {
        for (int v : values) {
            if (v == value) {
                return true;
            }
        }
        return false;
    }

    private static void connect(Qp qp, int peerQpn, byte[] gid, int sgid, EmulatedDevice device) throws VerbsException {
        // A long retransmission timeout (4 s): the warm-up is what may be slow here.
        QpConnect.to(new QpPeer(peerQpn, 0, gid)).sgidIndex(sgid).pathMtu(device.rnic().port().activeMtu())
                .readAtomic(16, 16).minRnrTimer(1).timeout(20).apply(qp);
    }
}
