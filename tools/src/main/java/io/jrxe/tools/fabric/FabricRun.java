package io.jrxe.tools.fabric;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.VirtualTime;
import io.jrxe.wire.sim.fabric.FabricSampler;
import io.jrxe.wire.sim.fabric.HostPair;
import io.jrxe.wire.sim.fabric.Link;
import io.jrxe.wire.sim.fabric.OutputQueue;
import io.jrxe.wire.sim.fabric.Switch;
import io.jrxe.wire.sim.fabric.Topology;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link FabricScenario}: builds the topology on a simulated network, puts a jrxe NIC at each host, connects
 * a QP pair per flow and lets the senders write, all in virtual time on this thread, snapshotting the fabric as it
 * goes. The NICs are the real ones: their go-back-N, CNPs and congestion control are what is measured.
 */
final class FabricRun {
    private final FabricScenario s;
    private final SimulatedNetwork network;
    private final VirtualTime time;
    private final Topology topology;
    private final Map<PeerAddress, FabricHost> hosts = new LinkedHashMap<>();
    private final List<FabricFlow> flows = new ArrayList<>();
    /** Each sender's flows by QP number (QP numbers are per NIC). */
    private final Map<FabricHost, Map<Integer, FabricFlow>> byQp = new HashMap<>();
    private final FabricSampler sampler;
    private final List<long[]> completedSamples = new ArrayList<>();
    private final WorkCompletion[] polled = new WorkCompletion[16];
    private VerbsException failed;

    private FabricRun(FabricScenario scenario) {
        s = scenario;
        network = new SimulatedNetwork(s.seed());
        time = network.time();
        topology = Topology.of(s.topology(), network, s.senders(), new Link(s.linkBits(), s.delayNanos()), s.queues());
        sampler = new FabricSampler(topology.fabric(), List.of(topology.bottleneck()), topology.flows());
        for (int i = 0; i < polled.length; i++) {
            polled[i] = new WorkCompletion();
        }
    }

    static FabricResult run(FabricScenario scenario) throws VerbsException {
        FabricRun run = new FabricRun(scenario);
        try (Arena arena = Arena.ofShared()) {
            try {
                run.connect(arena);
                run.send();
                return run.result();
            } finally {
                run.hosts.values().forEach(FabricHost::close);
            }
        }
    }

    private void connect(Arena arena) throws VerbsException {
        int cqEntries = 2 * s.depth() * topology.flows().size() + 16;
        for (HostPair pair : topology.flows()) {
            for (PeerAddress a : List.of(pair.sender(), pair.receiver())) {
                if (!hosts.containsKey(a)) {
                    hosts.put(a, new FabricHost(a, network, s, cqEntries, arena));
                }
            }
            FabricFlow flow = new FabricFlow(flows.size(), pair, hosts.get(pair.sender()), hosts.get(pair.receiver()), s);
            flows.add(flow);
            byQp.computeIfAbsent(flow.sender, h -> new HashMap<>()).put(flow.qpNum(), flow);
        }
    }

    private void send() throws VerbsException {
        long end = s.durationNanos();
        long interval = Math.max(1, expectedNanos() / s.samples());
        sample();
        while (time.nanoTime() < end && !allFinished()) {
            long next = Math.min(end, time.nanoTime() + interval);
            time.runUntil(() -> service() || time.nanoTime() >= next, next - time.nanoTime());
            if (failed != null) {
                throw failed;
            }
            if (!allFinished() && time.nanoTime() < next) {
                time.runFor(next - time.nanoTime());
            }
            sample();
        }
    }

    /**
     * How long the run should take: its duration, or, when the flows write a number of bytes, twice the time all of
     * them take through one link of the hosts' rate (so that about half the snapshots fall before the end).
     */
    private long expectedNanos() {
        if (s.bytesPerFlow() == 0) {
            return s.durationNanos();
        }
        double oneLink = (double) s.bytesPerFlow() * flows.size() * 8 * 1e9 / s.linkBits();
        return (long) Math.min(s.durationNanos(), Math.max(1_000_000, 2 * oneLink));
    }

    /** Polls the senders' CQs and posts more WRITEs; true once every flow is finished. */
    private boolean service() {
        boolean sending = time.nanoTime() < s.durationNanos();
        try {
            for (FabricFlow flow : flows) {
                int n;
                while ((n = flow.sender.cq.poll(polled)) > 0) {
                    for (int i = 0; i < n; i++) {
                        byQp.get(flow.sender).get(polled[i].qpNum()).completed(polled[i], time.nanoTime());
                    }
                }
                flow.post(sending);
            }
        } catch (VerbsException e) {
            failed = e;
            return true;
        }
        return allFinished();
    }

    private boolean allFinished() {
        return s.bytesPerFlow() > 0 && flows.stream().allMatch(FabricFlow::finished);
    }

    private void sample() {
        sampler.sample();
        completedSamples.add(flows.stream().mapToLong(FabricFlow::completedBytes).toArray());
    }

    private FabricResult result() throws VerbsException {
        List<FabricSampler.Sample> samples = sampler.samples();
        long endNanos = time.nanoTime();
        int half = halfIndex(samples, endNanos / 2);
        FabricSampler.Sample h = samples.get(half);
        FabricSampler.Sample last = samples.getLast();
        double secondHalfSeconds = Math.max(1, last.nanos() - h.nanos()) / 1e9;
        long[] completedAtHalf = completedSamples.get(half);

        List<FabricResult.Flow> flowResults = new ArrayList<>();
        List<Double> fairShares = new ArrayList<>();
        for (FabricFlow f : flows) {
            boolean victim = f.index == topology.victim();
            long completion = f.completionNanos();
            double seconds = (completion >= 0 ? completion : endNanos) / 1e9;
            double secondHalf = (f.completedBytes() - completedAtHalf[f.index]) * 8 / secondHalfSeconds;
            if (!victim) {
                fairShares.add(secondHalf);
            }
            flowResults.add(new FabricResult.Flow(f.pair.toString(), victim, f.completedBytes(),
                    seconds > 0 ? f.completedBytes() * 8 / seconds : 0, secondHalf, completion,
                    topology.fabric().deliveredBytes(f.pair), f.sender.counter("sent_pkts"),
                    f.sender.counter("completer_retry_err"), f.sender.counter("jrxe_rcvd_cnp"),
                    f.sender.counter("jrxe_cc_rate_decreased"),
                    topology.fabric().hostQueue(f.pair.sender()).pausedNanos(),
                    f.failure() == null ? null : f.failure().toString()));
        }
        List<FabricResult.Queue> queues = new ArrayList<>();
        long drops = 0;
        long marks = 0;
        for (OutputQueue q : topology.switchQueues()) {
            queues.add(new FabricResult.Queue(q.name(), q.maxDepthBytes(), q.meanDepthBytes(), q.marks(), q.drops(),
                    q.pausesReceived(), q.pausedNanos(), endNanos == 0 ? 0 : q.busyNanos() / (double) endNanos));
            drops += q.drops();
            marks += q.marks();
        }
        long pauses = topology.fabric().switches().stream().mapToLong(Switch::pausesSent).sum();
        long cnpsSent = 0;
        long cnpsReceived = 0;
        long retries = 0;
        for (FabricHost host : hosts.values()) {
            cnpsSent += host.counter("jrxe_sent_cnp");
            cnpsReceived += host.counter("jrxe_rcvd_cnp");
            retries += host.counter("completer_retry_err");
        }
        double busy = (last.busyNanos()[0] - h.busyNanos()[0]) / 1e9;
        return new FabricResult(s, network.fingerprint(), endNanos, h.nanos(), topology.bottleneck().name(),
                flowResults, queues, jain(fairShares), busy / secondHalfSeconds, drops, marks, pauses, cnpsSent,
                cnpsReceived, retries, series(samples));
    }

    private static int halfIndex(List<FabricSampler.Sample> samples, long halfNanos) {
        for (int i = 0; i < samples.size(); i++) {
            if (samples.get(i).nanos() >= halfNanos) {
                return i;
            }
        }
        return samples.size() - 1;
    }

    /** Jain's index: (Σx)² / (n·Σx²); 1 when all are equal, 1/n when one has everything. */
    static double jain(List<Double> x) {
        double sum = 0;
        double squares = 0;
        for (double v : x) {
            sum += v;
            squares += v * v;
        }
        return squares == 0 ? 0 : sum * sum / (x.size() * squares);
    }

    private FabricResult.Series series(List<FabricSampler.Sample> samples) {
        int n = samples.size() - 1;
        double[] millis = new double[n];
        double[] depth = new double[n];
        List<double[]> rates = new ArrayList<>();
        for (int f = 0; f < flows.size(); f++) {
            rates.add(new double[n]);
        }
        for (int i = 0; i < n; i++) {
            FabricSampler.Sample a = samples.get(i);
            FabricSampler.Sample b = samples.get(i + 1);
            millis[i] = b.nanos() / 1e6;
            depth[i] = b.depthBytes()[0] / 1024.0;
            double seconds = Math.max(1, b.nanos() - a.nanos()) / 1e9;
            for (int f = 0; f < flows.size(); f++) {
                rates.get(f)[i] = (b.deliveredBytes()[f] - a.deliveredBytes()[f]) * 8 / seconds / 1e9;
            }
        }
        return new FabricResult.Series(millis, depth, flows.stream().map(f -> f.pair.toString()).toList(), rates);
    }
}
