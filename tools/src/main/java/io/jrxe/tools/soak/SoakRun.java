package io.jrxe.tools.soak;

import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.wire.sim.LinkFaults;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.VirtualTime;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The soak: two NICs on a {@link SimulatedNetwork} with faults in both directions, several connected RC QP
 * pairs between them, and a seeded random mix of every RC operation (SEND, SEND_WITH_IMM, RDMA_WRITE,
 * RDMA_WRITE_WITH_IMM, RDMA_READ, both atomics) of sizes from 0 to several MTUs, several outstanding per QP
 * in each direction. Everything runs on the calling thread in virtual time, so a seed replays exactly.
 *
 * <p>This class sets the run up and drives it: the {@link WorkloadGenerator} posts the mix, the
 * {@link CompletionChecker} and the {@link MemoryChecker} compare what the NICs did with the {@link SoakModel}
 * (a shadow copy of both NICs' memory and the completions due), and the {@link SoakReport} counts and tells.
 * At the end, after a settling time in which no completion may appear, both memories are compared with the
 * model in full. A QP pair that runs out of retries fails, as RC must: the run goes on with the others, and
 * stops when none is left. {@code --with} ({@link SoakExtra}) adds ATOMIC WRITE and FLUSH to the mix, and a UC
 * pair ({@link StandingReceives}).
 */
public final class SoakRun {
    /** At most this many operations outstanding per QP and direction. */
    public static final int WINDOW = 8;
    /** The longest the network holds a packet back (when it reorders one), on top of its delay. */
    static final long REORDER_HOLD_NANOS = 40_000;
    private static final long MS = 1_000_000L;
    /** After the last completion: virtual time in which nothing may complete and no memory may change. */
    private static final long SETTLE_NANOS = 50 * MS;
    /** With no operation finishing for this long, something is stuck. */
    private static final long STALL_NANOS = 10_000 * MS;
    /** Tasks run without virtual time moving: a livelock. */
    private static final long MAX_STEPS_AT_ONE_INSTANT = 2_000_000;
    private static final AtomicLong RUNS = new AtomicLong();

    /** Hears about progress: called about every 10% of the operations. */
    @FunctionalInterface
    public interface Progress {
        void report(long opsDone, long opsTotal, long virtualNanos);
    }

    private final SoakConfig config;
    /** Every random choice of the run but the network's faults: the setup's, the generator's, the checker's. */
    private final Random random;
    private PrintWriter diagnostics;
    private Progress progress;
    private long virtualLimitNanos;
    private long tamperFrom = -1;
    private Predicate<Operation> tamperOnly;
    private long duplicateOf = -1;
    private Consumer<SoakModel> beforeSweep;
    private PrintWriter trace;

    private SimulatedNetwork network;
    private VirtualTime time;
    private SoakNic a;
    private SoakNic b;
    private SoakReport report;
    private WorkloadGenerator generator;
    private CompletionChecker checker;
    private MemoryChecker memory;

    public SoakRun(SoakConfig config) {
        this.config = config;
        this.random = new Random(config.seed() * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        this.virtualLimitNanos = 60_000 * MS + config.ops() * 10 * MS;
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

    /**
     * For the checker's own test: the send completion of operation {@code opId} is checked twice, as if the
     * NIC had written it twice. The run must then count one duplicated completion.
     */
    SoakRun duplicateSendCompletionOf(long opId) {
        duplicateOf = opId;
        return this;
    }

    /** For the checker's own test: sees (and may change) the model and both NICs' memory before the final sweep. */
    SoakRun beforeSweep(Consumer<SoakModel> hook) {
        beforeSweep = hook;
        return this;
    }

    /** For the checker's own test of UC and UD: as {@link #tamperWithResultOf}, but only with a UC or UD operation's result. */
    SoakRun tamperWithUcOrUdResultOf(long opId) {
        return tamperWithResultOf(opId, op -> op.lane.standing != null);
    }

    /** For the checker's own test of one kind of operation: as {@link #tamperWithResultOf}, only with those {@code which} accepts. */
    SoakRun tamperWithResultOf(long opId, Predicate<Operation> which) {
        tamperFrom = opId;
        tamperOnly = which;
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
    public SoakResult run() throws VerbsException, UnknownHostException {
        network = new SimulatedNetwork(config.seed());
        time = network.time();
        LinkFaults faults = LinkFaults.NONE.withLoss(config.loss()).withDuplicate(config.duplicate())
                .withReorder(config.reorder(), REORDER_HOLD_NANOS).withCorrupt(config.corrupt());
        network.faults(faults);
        Arena arena = Arena.ofConfined();
        long run = RUNS.incrementAndGet();
        SoakModel model = new SoakModel();
        report = new SoakReport(config.ops(), diagnostics, progress);
        generator = new WorkloadGenerator(random, model, config.ops(), OperationKind.mix(config.extras()));
        memory = new MemoryChecker(model, report, random, tamperFrom);
        if (tamperOnly != null) {
            memory.tamperOnly(tamperOnly);
        }
        checker = new CompletionChecker(model, report, time, memory, config.quarantineNanos());
        if (duplicateOf >= 0) {
            checker.duplicateSendCompletionOf(duplicateOf);
        }
        try {
            a = new SoakNic("A", "soak" + run + "a", "10.0.0.1", network, arena, config, 0);
            b = new SoakNic("B", "soak" + run + "b", "10.0.0.2", network, arena, config, 1);
            for (int i = 0; i < config.pairs(); i++) {
                QpType type = config.pairType(i);
                if (type != QpType.UD) {
                    QpPairs.connect(a, b, i, random);
                }
                List<Lane> lanes = List.of(new Lane(i, a, b, random), new Lane(i, b, a, random));
                if (type == QpType.UD) {
                    QpPairs.connectUd(lanes.get(0), lanes.get(1), random);
                }
                if (type == QpType.RC && config.extras().contains(SoakExtra.MW)) {
                    MemoryWindows.open(lanes.get(0), lanes.get(1));
                    model.windows = new MemoryWindows();
                }
                for (Lane lane : lanes) {
                    model.lanes.add(lane);
                    if (type != QpType.RC) {
                        StandingReceives.open(lane, type);
                    }
                }
            }
            if (trace != null) {
                traceEngines(a);
                traceEngines(b);
            }
            String stopped = loop(model);
            StandingReceives.closeAll(model);
            if (stopped == null) {
                settle();
                // Every operation finished, but every pair failed on the way: a run that ends with none alive is no pass.
                stopped = model.noPairSurvived() ? SoakResult.NO_PAIR_SURVIVED : null;
            }
            if (stopped != null) {
                report.detail("stopped: " + stopped);
                pollBoth();
            }
            if (beforeSweep != null) {
                beforeSweep.accept(model);
            }
            memory.sweep(a);
            memory.sweep(b);
            long lost = report.lost(model.unfinished()) + report.lostStanding(StandingReceives.left(model));
            report.note(StandingReceives.summary(model, QpType.UC));
            report.note(StandingReceives.summary(model, QpType.UD));
            report.note(SrqReceives.summary(a, b));
            report.note(model.windows == null ? null : model.windows.summary());
            if (!config.nicFaults().none()) {
                report.note("--faults: NIC A did " + a.faultsDone() + " faults, NIC B " + b.faultsDone());
            }
            long retransmits = a.counter("completer_retry_err") + b.counter("completer_retry_err");
            return report.result(config.seed(), lost, retransmits, time.nanoTime(), network.fingerprint(), stopped);
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

    private void traceEngines(SoakNic nic) {
        nic.device.nic().trace((event, qpn, wrId, psn, opcode, value) -> trace.printf(
                "%12d %s qp=0x%06x %-15s psn=%s opcode=%s wr=%d value=%s%n", time.nanoTime(), nic, qpn, event,
                psn < 0 ? "-" : String.format("0x%06x", psn), event.opcodeName(opcode), wrId, event.valueName(value)));
    }

    /** Posts and runs until every operation finished; the reason when it had to stop early, else null. */
    private String loop(SoakModel model) throws VerbsException {
        long ops = config.ops();
        long stepsAtInstant = 0;
        long instant = -1;
        report.started(time.nanoTime());
        while (report.finished() < ops) {
            if (model.noPairSurvived() && outstanding() == 0) {
                return SoakResult.NO_PAIR_SURVIVED;
            }
            if (generator.posted() < ops) {
                generator.postSome();
            }
            if (!time.step()) {
                if (generator.posted() < ops && outstanding() == 0) {
                    continue;
                }
                return "nothing is left to happen on the network or in the NICs, but " + model.outstandingWrs()
                        + " work requests have no completion";
            }
            pollBoth();
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
            if (outstanding() > 0 && now - report.lastFinishAt() > STALL_NANOS) {
                return "no operation finished in " + seconds(STALL_NANOS) + " s of virtual time";
            }
        }
        return null;
    }

    /** Lets late duplicates and retransmissions play out: nothing may complete any more. */
    private void settle() throws VerbsException {
        time.runFor(SETTLE_NANOS);
        pollBoth();
    }

    /** Both NICs' completions; again when a pair failed, whose flushes may then wait on the NIC polled first. */
    private void pollBoth() throws VerbsException {
        do {
            checker.poll(a);
            checker.poll(b);
        } while (checker.pairFailedSinceAsked());
    }

    private long outstanding() {
        return generator.posted() - report.finished();
    }

    static String seconds(long nanos) {
        return String.format("%.3f", nanos / 1e9);
    }
}
