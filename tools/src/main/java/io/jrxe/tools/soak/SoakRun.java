package io.jrxe.tools.soak;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.Verbs;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.sim.LinkFaults;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.VirtualTime;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak engine: two NICs on a {@link SimulatedNetwork} with faults in both directions, several
 * connected RC QP pairs between them, and a seeded random mix of every RC operation (SEND,
 * SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ, both atomics) of sizes from 0 to
 * several MTUs, several outstanding per QP in each direction. Everything runs on the calling
 * thread in virtual time, so a seed replays exactly.
 *
 * <p>The checker keeps a shadow copy of both NICs' registered memory: what every byte must hold.
 * Each operation owns disjoint buffers (slots) while it is outstanding; atomics share a few
 * 8-byte cells per QP and direction, whose values the model computes in posting order (an RC
 * responder executes them in PSN order). When an operation's last completion arrives its slots
 * are compared with the shadow, the whole slot, so bytes written past a message's end count too.
 * Completions are checked as they come: each posted WR exactly once, in order per QP, SUCCESS,
 * with the right opcode, byte_len and immediate; receives in the order of the messages that
 * consume them. At the end, after a settling time in which no completion may appear, both
 * memories are compared with the shadow in full.
 */
public final class SoakRun {
    /** Where each side's memory starts in its MR's address space. */
    private static final long IOVA = 0x5AA0_0000_0000L;

    /** At most this many operations outstanding per QP and direction. */
    public static final int WINDOW = 8;
    /** Local ACK timeout 8: 4.096 us x 2^8, about 1 ms of virtual time before a retransmission. */
    static final int TIMEOUT = 8;
    static final int RETRY_CNT = 7;
    static final int RNR_RETRY = 7;
    /** Messages up to this long are sometimes posted INLINE. */
    static final int MAX_INLINE = 64;
    static final int MAX_SGE = 4;
    /** 8-byte atomic targets per QP and direction. */
    static final int CELLS = 4;
    static final long RECV_TAG = 1L << 40;
    private static final byte POISON = (byte) 0xA5;
    /** Each QP pair gets its own path MTU and max_rd_atomic, so a run covers several. */
    private static final Mtu[] MTUS = {Mtu.MTU_1024, Mtu.MTU_256, Mtu.MTU_4096, Mtu.MTU_512, Mtu.MTU_2048};
    private static final int[] RD_ATOMIC = {16, 4, 1, 8, 2};
    private static final WrOpcode[] OPCODES = {WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.RDMA_WRITE,
        WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.RDMA_READ, WrOpcode.ATOMIC_CMP_AND_SWP, WrOpcode.ATOMIC_FETCH_AND_ADD};
    private static final long MS = 1_000_000L;
    /** After the last completion: virtual time in which nothing may complete and no memory may change. */
    private static final long SETTLE_NANOS = 50 * MS;
    /** With no operation finishing for this long, something is stuck. */
    private static final long STALL_NANOS = 10_000 * MS;
    /** Tasks run without virtual time moving: a livelock. */
    private static final long MAX_STEPS_AT_ONE_INSTANT = 2_000_000;
    private static final int MAX_DETAILS = 20;
    private static final AtomicLong RUNS = new AtomicLong();

    /** What a run found. */
    public record Result(long ops, long ok, long mismatches, long lostCompletions, long retransmits, long seed,
                         long virtualNanos, long fingerprint, String stoppedBecause) {
        /** The line `jrxe soak` ends with. */
        public String summary() {
            return "ops=" + ops + " ok=" + ok + " mismatches=" + mismatches + " lost_completions=" + lostCompletions
                    + " retransmits=" + retransmits + " seed=" + seed;
        }

        public boolean passed() {
            return mismatches == 0 && lostCompletions == 0;
        }
    }

    /** Hears about progress: called about every 10% of the operations. */
    @FunctionalInterface
    public interface Progress {
        void report(long opsDone, long opsTotal, long virtualNanos);
    }

    private final SoakConfig config;
    private final Random random;
    private PrintWriter diagnostics;
    private Progress progress;
    private long virtualLimitNanos;
    private long tamperFrom = -1;
    private PrintWriter trace;

    private SimulatedNetwork network;
    private VirtualTime time;
    private Arena arena;
    private Side a;
    private Side b;
    private final List<Lane> lanes = new ArrayList<>();
    private final Map<Long, Op> awaitingSend = new HashMap<>();
    private final Map<Long, Op> awaitingRecv = new HashMap<>();
    private final WorkCompletion[] wcs = new WorkCompletion[32];

    private long nextId;
    private long posted;
    private long finished;
    private long ok;
    private long failedOps;
    private long stray;
    private long sweepMismatches;
    private int details;
    private long lastFinishAt;
    private int lastDecile;

    public SoakRun(SoakConfig config) {
        this.config = config;
        this.random = new Random(config.seed() * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        this.virtualLimitNanos = 60_000 * MS + config.ops() * 10 * MS;
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /** Where to say what went wrong, one line each (the first few): a mismatch, a lost completion, a stop. */
    public SoakRun diagnostics(PrintWriter w) {
        diagnostics = w;
        return this;
    }

    public SoakRun progress(Progress p) {
        progress = p;
        return this;
    }

    /** The virtual time after which the run stops and counts what is still outstanding as lost. */
    public SoakRun virtualTimeLimit(long nanos) {
        virtualLimitNanos = nanos;
        return this;
    }

    /**
     * For the checker's own test: just before the first operation numbered {@code opId} or later
     * whose result is not empty is checked, one bit of that result is flipped behind the soak's
     * back, as a NIC bug would. The run must then report exactly one mismatch.
     */
    public SoakRun tamperWithResultOf(long opId) {
        tamperFrom = opId;
        return this;
    }

    /** Writes every engine trace event of both NICs, with its virtual time, one line each (to replay a failing seed). */
    public SoakRun trace(PrintWriter w) {
        trace = w;
        return this;
    }

    /** The simulated network of the last run (its fingerprint and counts), or null before one. */
    public SimulatedNetwork network() {
        return network;
    }

    /** Runs the whole soak; the devices are gone when it returns. */
    public Result run() throws VerbsException, UnknownHostException {
        network = new SimulatedNetwork(config.seed());
        time = network.time();
        LinkFaults faults = LinkFaults.NONE.withLoss(config.loss()).withDuplicate(config.duplicate())
                .withReorder(config.reorder(), 40_000).withCorrupt(config.corrupt());
        network.faults(faults);
        arena = Arena.ofConfined();
        long run = RUNS.incrementAndGet();
        String stopped = null;
        try {
            a = new Side("A", "soak" + run + "a", "10.0.0.1");
            b = new Side("B", "soak" + run + "b", "10.0.0.2");
            for (int i = 0; i < config.qps(); i++) {
                connect(i);
            }
            if (trace != null) {
                traceEngines(a);
                traceEngines(b);
            }
            stopped = loop();
            if (stopped == null) {
                settle();
            } else {
                detail("stopped: " + stopped);
                poll(a);
                poll(b);
            }
            sweep(a);
            sweep(b);
            long lost = 0;
            for (Op op : unfinished()) {
                int missing = (op.sendDone ? 0 : 1) + (op.needsRecv && !op.recvDone ? 1 : 0);
                if (missing > 0 && lost == 0) {
                    detail("op " + op + " got no " + (op.sendDone ? "receive" : "send") + " completion");
                }
                lost += missing;
            }
            long retransmits = counter(a, "completer_retry_err") + counter(b, "completer_retry_err");
            return new Result(config.ops(), ok, failedOps + stray + sweepMismatches, lost, retransmits, config.seed(),
                    time.nanoTime(), network.fingerprint(), stopped);
        } finally {
            if (a != null) {
                Verbs.emulated().remove(a.device);
            }
            if (b != null) {
                Verbs.emulated().remove(b.device);
            }
            arena.close();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Setup

    /** One NIC: its device, CQs, QPs, one MR over all its memory, and the shadow of that memory. */
    private final class Side {
        final String label;
        final EmulatedDevice device;
        final Context ctx;
        final Pd pd;
        final Cq sendCq;
        final Cq recvCq;
        final Qp[] qps;
        final Area[] areas;
        final MemorySegment memory;
        final Mr mr;
        final byte[] shadowBytes;
        final MemorySegment shadow;
        final Map<Integer, Integer> qpIndex = new HashMap<>();

        Side(String label, String name, String address) throws VerbsException, UnknownHostException {
            this.label = label;
            device = Verbs.emulated().createSimulated(
                    DeviceConfig.of(name, InetAddress.getByName(address)).withInterfaceMtu(4200), network);
            ctx = device.open();
            pd = ctx.allocPd();
            sendCq = ctx.createCq(4096, null);
            recvCq = ctx.createCq(4096, null);
            qps = new Qp[config.qps()];
            areas = new Area[config.qps()];
            long size = 0;
            for (int i = 0; i < qps.length; i++) {
                qps[i] = pd.createQp(new QpInitAttributes(QpType.RC, sendCq, recvCq, null,
                        new QpCapabilities(2 * WINDOW, 2 * WINDOW, MAX_SGE, MAX_SGE, MAX_INLINE), false));
                qpIndex.put(qps[i].qpNum(), i);
                areas[i] = new Area(size, slotSize(MTUS[i % MTUS.length].bytes()));
                size = areas[i].end();
            }
            memory = arena.allocate(Math.max(size, 4096), 4096);
            shadowBytes = new byte[(int) memory.byteSize()];
            shadow = MemorySegment.ofArray(shadowBytes);
            // Start from a known pattern: every byte of memory is in the model from the start.
            fill(0, (int) memory.byteSize(), POISON);
            // A fixed iova, not the memory's address: the packets (RETH, AtomicETH) then carry the same addresses in
            // every run, which a replay of a seed needs; where malloc puts the memory differs from run to run.
            mr = pd.regMr(memory, IOVA, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC);
        }

        long address(long offset) {
            return IOVA + offset;
        }

        /** Writes the same bytes to memory and to the shadow (the application setting up a buffer). */
        void put(long offset, byte[] bytes) {
            MemorySegment.copy(bytes, 0, memory, ValueLayout.JAVA_BYTE, offset, bytes.length);
            MemorySegment.copy(bytes, 0, shadow, ValueLayout.JAVA_BYTE, offset, bytes.length);
        }

        void fill(long offset, int length, byte value) {
            memory.asSlice(offset, length).fill(value);
            shadow.asSlice(offset, length).fill(value);
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** The memory a side keeps for one QP: slots that operations own while outstanding, then atomic cells. */
    private static final class Area {
        final long base;
        final int slotSize;
        final int slots = 2 * WINDOW + 2;
        final ArrayDeque<Integer> free = new ArrayDeque<>();

        Area(long base, int slotSize) {
            this.base = base;
            this.slotSize = slotSize;
            for (int i = 0; i < slots; i++) {
                free.add(i);
            }
        }

        long slot(int i) {
            return base + (long) i * slotSize;
        }

        long cell(int i) {
            return base + (long) slots * slotSize + 8L * i;
        }

        long end() {
            return base + (long) slots * slotSize + 64;
        }

        int take() {
            Integer s = free.poll();
            if (s == null) {
                throw new IllegalStateException("no free slot: the window accounting is wrong");
            }
            return s;
        }
    }

    private static int maxLength(int mtu) {
        return 4 * mtu + mtu / 2 + 1;
    }

    private static int slotSize(int mtu) {
        return (maxLength(mtu) + MAX_INLINE + 2 * 64 + 63) & ~63;
    }

    /** Requests from one side to the other over QP pair {@code index}. */
    private final class Lane {
        final int index;
        final Side from;
        final Side to;
        final int mtu;
        final ArrayDeque<Op> sends = new ArrayDeque<>();
        final ArrayDeque<Op> recvs = new ArrayDeque<>();
        final long[] cellValue = new long[CELLS];
        final int[] cellOutstanding = new int[CELLS];
        int active;
        int depth = WINDOW;

        Lane(int index, Side from, Side to) {
            this.index = index;
            this.from = from;
            this.to = to;
            this.mtu = MTUS[index % MTUS.length].bytes();
            for (int c = 0; c < CELLS; c++) {
                cellValue[c] = random.nextLong();
                MemorySegment.copy(new long[] {cellValue[c]}, 0, to.memory, ValueLayout.JAVA_LONG_UNALIGNED,
                        to.areas[index].cell(c), 1);
                to.shadow.set(ValueLayout.JAVA_LONG_UNALIGNED, to.areas[index].cell(c), cellValue[c]);
            }
        }

        @Override
        public String toString() {
            return "QP pair " + index + " " + from + "->" + to;
        }
    }

    private void connect(int i) throws VerbsException {
        Mtu mtu = MTUS[i % MTUS.length];
        int rdAtomic = RD_ATOMIC[i % RD_ATOMIC.length];
        // Initial PSNs near the 2^24 wrap half of the time: the arithmetic modulo 2^24 gets exercised.
        int psnAB = startPsn();
        int psnBA = startPsn();
        modify(a, b, i, mtu, rdAtomic, psnBA, psnAB);
        modify(b, a, i, mtu, rdAtomic, psnAB, psnBA);
        lanes.add(new Lane(i, a, b));
        lanes.add(new Lane(i, b, a));
    }

    private int startPsn() {
        return random.nextBoolean() ? 0xFFFFFF - random.nextInt(64) : random.nextInt(1 << 24);
    }

    private static void modify(Side self, Side peer, int i, Mtu mtu, int rdAtomic, int rqPsn, int sqPsn)
            throws VerbsException {
        Qp qp = self.qps[i];
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
        byte[] dgid = GidEntry.gidOf(peer.device.rnic().config().addresses().getFirst());
        qp.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(dgid, 1)).pathMtu(mtu)
                .destQpn(peer.qps[i].qpNum()).rqPsn(rqPsn).maxDestRdAtomic(rdAtomic).minRnrTimer(1));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(sqPsn).timeout(TIMEOUT).retryCnt(RETRY_CNT)
                .rnrRetry(RNR_RETRY).maxRdAtomic(rdAtomic));
    }

    private void traceEngines(Side side) {
        side.device.dataPath().trace((event, qpn, wrId, psn, opcode, value) -> trace.printf(
                "%12d %s qp=0x%06x %-15s psn=%s opcode=%d wr=%d value=%d%n", time.nanoTime(), side, qpn, event,
                psn < 0 ? "-" : String.format("0x%06x", psn), opcode, wrId, value));
    }

    // ---------------------------------------------------------------------------------------------
    // The run

    /** Posts and runs until every operation finished; the reason when it had to stop early, else null. */
    private String loop() throws VerbsException {
        long ops = config.ops();
        long stepsAtInstant = 0;
        long instant = -1;
        lastFinishAt = time.nanoTime();
        while (finished < ops) {
            if (posted < ops) {
                postSome();
            }
            if (!time.step()) {
                if (posted < ops && outstanding() == 0) {
                    continue;
                }
                return "nothing is left to happen on the network or in the NICs, but " + outstandingWrs()
                        + " work requests have no completion";
            }
            poll(a);
            poll(b);
            long now = time.nanoTime();
            if (now != instant) {
                instant = now;
                stepsAtInstant = 0;
            } else if (++stepsAtInstant > MAX_STEPS_AT_ONE_INSTANT) {
                return MAX_STEPS_AT_ONE_INSTANT + " tasks ran at virtual time " + seconds(now)
                        + " s without time moving on (a livelock)";
            }
            if (now > virtualLimitNanos) {
                return "virtual time passed the limit of " + seconds(virtualLimitNanos) + " s";
            }
            if (outstanding() > 0 && now - lastFinishAt > STALL_NANOS) {
                return "no operation finished in " + seconds(STALL_NANOS) + " s of virtual time";
            }
        }
        return null;
    }

    /** Lets late duplicates and retransmissions play out: nothing may complete any more. */
    private void settle() {
        time.runFor(SETTLE_NANOS);
        poll(a);
        poll(b);
    }

    private long outstanding() {
        return posted - finished;
    }

    private long outstandingWrs() {
        long n = 0;
        for (Op op : unfinished()) {
            n += (op.sendDone ? 0 : 1) + (op.needsRecv && !op.recvDone ? 1 : 0);
        }
        return n;
    }

    private List<Op> unfinished() {
        List<Op> ops = new ArrayList<>();
        for (Lane lane : lanes) {
            for (Op op : lane.sends) {
                if (!op.finished) {
                    ops.add(op);
                }
            }
            for (Op op : lane.recvs) {
                if (!op.finished && op.sendDone) {
                    ops.add(op);
                }
            }
        }
        return ops;
    }

    /** Posts bursts of work requests on lanes that have room, while the dice say so. */
    private void postSome() throws VerbsException {
        List<Lane> open = new ArrayList<>(lanes.size());
        while (posted < config.ops() && random.nextInt(4) != 0) {
            open.clear();
            for (Lane lane : lanes) {
                if (lane.active < Math.min(lane.depth, WINDOW) || lane.active == 0) {
                    open.add(lane);
                }
            }
            if (open.isEmpty()) {
                return;
            }
            Lane lane = open.get(random.nextInt(open.size()));
            int room = Math.max(1, Math.min(lane.depth, WINDOW) - lane.active);
            int burst = 1 + random.nextInt((int) Math.min(Math.min(4, room), config.ops() - posted));
            postBurst(lane, burst);
            lane.depth = 1 + random.nextInt(WINDOW);
        }
    }

    /** One operation, from the requester's work request to what the checker expects of it. */
    private static final class Op {
        final long id;
        final Lane lane;
        final WrOpcode opcode;
        int length;
        int imm;
        boolean inline;
        int localSlot = -1;
        int remoteSlot = -1;
        int cell = -1;
        long expectedOriginal;
        byte[] data;
        boolean needsRecv;
        boolean sendDone;
        boolean recvDone;
        boolean failed;
        boolean finished;

        Op(long id, Lane lane, WrOpcode opcode) {
            this.id = id;
            this.lane = lane;
            this.opcode = opcode;
        }

        @Override
        public String toString() {
            return id + " (" + lane + ", " + opcode + " of " + length + " bytes)";
        }
    }

    private void postBurst(Lane lane, int n) throws VerbsException {
        SendWr first = null;
        SendWr last = null;
        RecvWr firstRecv = null;
        RecvWr lastRecv = null;
        for (int k = 0; k < n; k++) {
            Op op = prepare(lane);
            SendWr wr = sendWr(op);
            if (first == null) {
                first = wr;
            } else {
                last.next(wr);
            }
            last = wr;
            if (op.needsRecv) {
                RecvWr r = recvWr(op);
                if (firstRecv == null) {
                    firstRecv = r;
                } else {
                    lastRecv.next(r);
                }
                lastRecv = r;
                lane.recvs.add(op);
                awaitingRecv.put(op.id | RECV_TAG, op);
            }
            lane.sends.add(op);
            lane.active++;
            awaitingSend.put(op.id, op);
            posted++;
        }
        // Receives first, always enough of them: an RNR NAK is not what this soak is about.
        if (firstRecv != null) {
            lane.to.qps[lane.index].postRecv(firstRecv);
        }
        if (random.nextBoolean()) {
            lane.from.qps[lane.index].postSend(first);
        } else {
            for (SendWr wr = first; wr != null; ) {
                SendWr next = wr.next();
                wr.next(null);
                lane.from.qps[lane.index].postSend(wr);
                wr = next;
            }
        }
    }

    private int randomLength(int mtu) {
        int r = random.nextInt(100);
        if (r < 8) {
            return 0;
        } else if (r < 30) {
            return 1 + random.nextInt(64);
        } else if (r < 40) {
            return mtu * (1 + random.nextInt(4));
        } else if (r < 45) {
            return mtu * (1 + random.nextInt(4)) + (random.nextBoolean() ? 1 : -1);
        } else if (r < 70) {
            return 1 + random.nextInt(mtu);
        }
        return mtu + 1 + random.nextInt(3 * mtu + mtu / 2);
    }

    /** Picks the operation and sets up its buffers, in memory and in the shadow. */
    private Op prepare(Lane lane) {
        Op op = new Op(nextId++, lane, OPCODES[random.nextInt(OPCODES.length)]);
        Side from = lane.from;
        Side to = lane.to;
        Area local = from.areas[lane.index];
        Area remote = to.areas[lane.index];
        switch (op.opcode) {
            case SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM -> {
                op.length = randomLength(lane.mtu);
                op.data = randomBytes(op.length);
                op.inline = op.length <= MAX_INLINE && random.nextInt(3) == 0;
                op.localSlot = local.take();
                from.put(local.slot(op.localSlot), op.data);
                op.remoteSlot = remote.take();
                to.fill(remote.slot(op.remoteSlot), remote.slotSize, POISON);
                op.imm = random.nextInt();
                op.needsRecv = op.opcode != WrOpcode.RDMA_WRITE;
            }
            case RDMA_READ -> {
                op.length = randomLength(lane.mtu);
                op.data = randomBytes(op.length);
                op.remoteSlot = remote.take();
                to.put(remote.slot(op.remoteSlot), op.data);
                op.localSlot = local.take();
                from.fill(local.slot(op.localSlot), local.slotSize, POISON);
            }
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                op.length = 8;
                op.localSlot = local.take();
                from.fill(local.slot(op.localSlot), local.slotSize, POISON);
                op.cell = random.nextInt(CELLS);
                long before = lane.cellValue[op.cell];
                op.expectedOriginal = before;
                long after;
                if (op.opcode == WrOpcode.ATOMIC_CMP_AND_SWP) {
                    op.data = longs(random.nextBoolean() ? before : random.nextLong(), random.nextLong());
                    long compare = MemorySegment.ofArray(op.data).get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                    long swap = MemorySegment.ofArray(op.data).get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
                    after = before == compare ? swap : before;
                } else {
                    long add = random.nextBoolean() ? 1 + random.nextInt(1000) : random.nextLong();
                    op.data = longs(add, 0);
                    after = before + add;
                }
                // The responder executes a QP's atomics in PSN order, so the model runs ahead in posting order.
                lane.cellValue[op.cell] = after;
                lane.cellOutstanding[op.cell]++;
                to.shadow.set(ValueLayout.JAVA_LONG_UNALIGNED, remote.cell(op.cell), after);
            }
            default -> throw new IllegalStateException(op.opcode + " is not in the soak's mix");
        }
        return op;
    }

    private static byte[] longs(long x, long y) {
        byte[] b = new byte[16];
        MemorySegment s = MemorySegment.ofArray(b);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, x);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, y);
        return b;
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private SendWr sendWr(Op op) {
        Lane lane = op.lane;
        Side from = lane.from;
        Side to = lane.to;
        Area local = from.areas[lane.index];
        Area remote = to.areas[lane.index];
        SendWr wr = new SendWr(MAX_SGE);
        wr.wrId = op.id;
        wr.opcode = op.opcode;
        wr.flags = SendWr.SIGNALED;
        wr.immData = op.imm;
        switch (op.opcode) {
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                MemorySegment d = MemorySegment.ofArray(op.data);
                wr.compareAdd = d.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                wr.swap = d.get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
                wr.remoteAddr = to.address(remote.cell(op.cell));
                wr.rkey = to.mr.rkey();
                wr.sgl.add(from.address(local.slot(op.localSlot)), 8, from.mr.lkey());
            }
            default -> {
                if (op.inline) {
                    wr.flags |= SendWr.INLINE;
                    wr.inlineData = op.data.clone();
                    wr.inlineLength = op.length;
                } else {
                    split(wr.sgl, from, local.slot(op.localSlot), op.length);
                }
                if (op.opcode != WrOpcode.SEND && op.opcode != WrOpcode.SEND_WITH_IMM) {
                    wr.remoteAddr = to.address(remote.slot(op.remoteSlot));
                    wr.rkey = to.mr.rkey();
                }
            }
        }
        return wr;
    }

    private RecvWr recvWr(Op op) {
        Lane lane = op.lane;
        RecvWr r = new RecvWr(MAX_SGE);
        r.wrId = op.id | RECV_TAG;
        if (op.opcode == WrOpcode.SEND || op.opcode == WrOpcode.SEND_WITH_IMM) {
            Area area = lane.to.areas[lane.index];
            int room = Math.min(area.slotSize, op.length + random.nextInt(MAX_INLINE + 1));
            split(r.sgl, lane.to, area.slot(op.remoteSlot), room);
        }
        // A WRITE_WITH_IMM's receive gets no buffer: it only carries the completion.
        return r;
    }

    /** One to MAX_SGE contiguous pieces (none for an empty buffer): the DMA walks scatter/gather lists. */
    private void split(io.jrxe.verbs.ScatterGatherList sgl, Side side, long offset, int length) {
        if (length == 0) {
            return;
        }
        int pieces = Math.min(length, random.nextInt(3) == 0 ? 1 + random.nextInt(MAX_SGE) : 1);
        long at = offset;
        int left = length;
        for (int p = pieces; p > 1; p--) {
            int n = 1 + random.nextInt(left - (p - 1));
            sgl.add(side.address(at), n, side.mr.lkey());
            at += n;
            left -= n;
        }
        sgl.add(side.address(at), left, side.mr.lkey());
    }

    // ---------------------------------------------------------------------------------------------
    // Completions

    private void poll(Side side) {
        int n;
        while ((n = side.sendCq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                sendCompletion(side, wcs[i]);
            }
        }
        while ((n = side.recvCq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                recvCompletion(side, wcs[i]);
            }
        }
    }

    private Lane lane(Side from, int qpn) {
        Integer index = from.qpIndex.get(qpn);
        if (index == null) {
            return null;
        }
        for (Lane lane : lanes) {
            if (lane.from == from && lane.index == index) {
                return lane;
            }
        }
        return null;
    }

    private void sendCompletion(Side side, WorkCompletion wc) {
        Lane lane = lane(side, wc.qpNum());
        Op op = awaitingSend.remove(wc.wrId());
        if (lane == null || op == null || op.lane != lane) {
            stray++;
            detail("a send completion no posted work request was waiting for, on " + side + ": " + wc);
            return;
        }
        if (lane.sends.peekFirst() != op) {
            fail(op, "its send completion came before that of op " + lane.sends.peekFirst().id + " posted earlier");
        }
        lane.sends.remove(op);
        op.sendDone = true;
        long expectedLength = op.cell >= 0 ? 8 : op.length;
        if (wc.status() != WcStatus.SUCCESS) {
            fail(op, "send completion " + wc);
        } else if (wc.opcode() != op.opcode.completion() || wc.byteLen() != expectedLength) {
            fail(op, "send completion " + wc + ", expected opcode " + op.opcode.completion() + " byte_len "
                    + expectedLength);
        }
        maybeFinish(op);
    }

    private void recvCompletion(Side side, WorkCompletion wc) {
        Op op = awaitingRecv.remove(wc.wrId());
        if (op == null || op.lane.to != side || op.lane.to.qps[op.lane.index].qpNum() != wc.qpNum()) {
            stray++;
            detail("a receive completion no posted receive was waiting for, on " + side + ": " + wc);
            return;
        }
        Lane lane = op.lane;
        if (lane.recvs.peekFirst() != op) {
            fail(op, "its receive completed before that of op " + lane.recvs.peekFirst().id
                    + ", whose message was sent earlier");
        }
        lane.recvs.remove(op);
        op.recvDone = true;
        boolean write = op.opcode == WrOpcode.RDMA_WRITE_WITH_IMM;
        boolean withImm = op.opcode != WrOpcode.SEND;
        if (wc.status() != WcStatus.SUCCESS) {
            fail(op, "receive completion " + wc);
        } else if (wc.opcode() != (write ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV) || wc.byteLen() != op.length
                || wc.hasImmediate() != withImm || withImm && wc.immData() != op.imm) {
            fail(op, "receive completion " + wc + ", expected " + (write ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV)
                    + " byte_len " + op.length + (withImm ? String.format(" imm=0x%08x", op.imm) : " without imm"));
        }
        maybeFinish(op);
    }

    private void maybeFinish(Op op) {
        if (!op.sendDone || op.needsRecv && !op.recvDone) {
            return;
        }
        Lane lane = op.lane;
        Side from = lane.from;
        Side to = lane.to;
        Area local = from.areas[lane.index];
        Area remote = to.areas[lane.index];
        // Where the operation's result is now, in the model.
        Side resultSide;
        long resultAt;
        switch (op.opcode) {
            case RDMA_READ -> {
                resultSide = from;
                resultAt = local.slot(op.localSlot);
                MemorySegment.copy(op.data, 0, from.shadow, ValueLayout.JAVA_BYTE, resultAt, op.length);
            }
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                resultSide = from;
                resultAt = local.slot(op.localSlot);
                from.shadow.set(ValueLayout.JAVA_LONG_UNALIGNED, resultAt, op.expectedOriginal);
            }
            default -> {
                resultSide = to;
                resultAt = remote.slot(op.remoteSlot);
                MemorySegment.copy(op.data, 0, to.shadow, ValueLayout.JAVA_BYTE, resultAt, op.length);
            }
        }
        if (tamperFrom >= 0 && op.id >= tamperFrom && op.length > 0) {
            tamperFrom = -1;
            long at = resultAt + random.nextInt(op.length);
            byte v = resultSide.memory.get(ValueLayout.JAVA_BYTE, at);
            resultSide.memory.set(ValueLayout.JAVA_BYTE, at, (byte) (v ^ 1 << random.nextInt(8)));
        }
        boolean good = compare(op, from, local.slot(op.localSlot), local.slotSize, "the requester's buffer");
        if (op.remoteSlot >= 0) {
            good &= compare(op, to, remote.slot(op.remoteSlot), remote.slotSize, "the responder's buffer");
        }
        if (op.cell >= 0 && --lane.cellOutstanding[op.cell] == 0) {
            good &= compare(op, to, remote.cell(op.cell), 8, "the atomic's target");
        }
        if (!good) {
            fail(op, null);
        }
        local.free.add(op.localSlot);
        if (op.remoteSlot >= 0) {
            remote.free.add(op.remoteSlot);
        }
        op.finished = true;
        lane.active--;
        finished++;
        if (!op.failed) {
            ok++;
        }
        lastFinishAt = time.nanoTime();
        int decile = (int) (finished * 10 / Math.max(1, config.ops()));
        if (decile != lastDecile) {
            lastDecile = decile;
            if (progress != null) {
                progress.report(finished, config.ops(), time.nanoTime());
            }
        }
    }

    /** Memory against the model; a difference is reported once, then the model takes what memory holds. */
    private boolean compare(Op op, Side side, long offset, long length, String what) {
        long at = MemorySegment.mismatch(side.memory, offset, offset + length, side.shadow, offset, offset + length);
        if (at < 0) {
            return true;
        }
        byte got = side.memory.get(ValueLayout.JAVA_BYTE, offset + at);
        byte want = side.shadow.get(ValueLayout.JAVA_BYTE, offset + at);
        detail("op " + op + ": byte " + at + " of " + what + " on " + side + " is "
                + String.format("0x%02x, expected 0x%02x", got & 0xFF, want & 0xFF));
        MemorySegment.copy(side.memory, offset, side.shadow, offset, length);
        return false;
    }

    private void fail(Op op, String why) {
        if (why != null) {
            detail("op " + op + ": " + why);
        }
        if (!op.failed) {
            op.failed = true;
            failedOps++;
        }
    }

    /** The whole memory of a side against the model, slot by slot, cell by cell (outstanding ones aside). */
    private void sweep(Side side) {
        List<long[]> busy = new ArrayList<>();
        for (Op op : unfinished()) {
            Lane lane = op.lane;
            busy.add(new long[] {lane.from == side ? lane.index : -1, op.localSlot,
                                 lane.to == side ? lane.index : -1, op.remoteSlot});
        }
        for (int i = 0; i < side.areas.length; i++) {
            Area area = side.areas[i];
            for (int s = 0; s < area.slots; s++) {
                if (!isBusy(busy, i, s)) {
                    sweepRange(side, area.slot(s), area.slotSize, "slot " + s + " of QP pair " + i);
                }
            }
            Lane incoming = null;
            for (Lane lane : lanes) {
                if (lane.to == side && lane.index == i) {
                    incoming = lane;
                }
            }
            for (int c = 0; c < CELLS; c++) {
                if (incoming != null && incoming.cellOutstanding[c] == 0) {
                    sweepRange(side, area.cell(c), 8, "atomic cell " + c + " of QP pair " + i);
                }
            }
        }
    }

    private static boolean isBusy(List<long[]> busy, int index, int slot) {
        for (long[] b : busy) {
            if (b[0] == index && b[1] == slot || b[2] == index && b[3] == slot) {
                return true;
            }
        }
        return false;
    }

    private void sweepRange(Side side, long offset, long length, String what) {
        long at = MemorySegment.mismatch(side.memory, offset, offset + length, side.shadow, offset, offset + length);
        if (at >= 0) {
            sweepMismatches++;
            detail("after the run, byte " + at + " of " + what + " on " + side + " is "
                    + String.format("0x%02x, expected 0x%02x", side.memory.get(ValueLayout.JAVA_BYTE, offset + at) & 0xFF,
                    side.shadow.get(ValueLayout.JAVA_BYTE, offset + at) & 0xFF));
            MemorySegment.copy(side.memory, offset, side.shadow, offset, length);
        }
    }

    private void detail(String line) {
        if (diagnostics == null) {
            return;
        }
        if (details < MAX_DETAILS) {
            diagnostics.println("soak: " + line);
        } else if (details == MAX_DETAILS) {
            diagnostics.println("soak: (more problems not shown)");
        }
        details++;
        diagnostics.flush();
    }

    private static long counter(Side side, String name) throws VerbsException {
        Long v = side.ctx.counters().get(name);
        return v == null ? 0 : v;
    }

    static String seconds(long nanos) {
        return String.format("%.3f", nanos / 1e9);
    }
}
