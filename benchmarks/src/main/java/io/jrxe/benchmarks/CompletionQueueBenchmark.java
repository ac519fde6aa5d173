package io.jrxe.benchmarks;

import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Completions through one CQ between two threads, as between the NIC thread and the program that polls: one thread
 * pushes receive completions while fewer than {@link #IN_FLIGHT} wait (a NIC completes only the work the program
 * posted, so its CQ never fills), the other polls up to {@code batch} at a time. The figure is {@code completions},
 * the completions polled per microsecond; each one's entry and the counters move between the two threads' cores, so
 * the ring's layout in memory is most of what it measures. Needs two cores.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CompletionQueueBenchmark {
    /** 1: a program that polls one at a time (a latency test); 16: a bandwidth test's batch. */
    @Param({"1", "16"})
    public int batch;

    /** Completions waiting at most: a receive queue's worth, a quarter of the ring. */
    static final int IN_FLIGHT = 1024;

    private CompletionQueue cq;
    private long nextWrId;

    @Setup(Level.Iteration)
    public void make() {
        cq = new CompletionQueue(1, 4096, null);
    }

    /** What the polling thread counts. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Poller {
        /** Completions polled. */
        public long completions;
        WorkCompletion[] out;

        @Setup(Level.Iteration)
        public void make() {
            out = new WorkCompletion[16];
            for (int i = 0; i < out.length; i++) {
                out[i] = new WorkCompletion();
            }
        }
    }

    @Benchmark
    @Group("nicAndPoller")
    @GroupThreads(1)
    public boolean nic() {
        if (cq.depth() >= IN_FLIGHT) {
            return false;
        }
        return cq.push(nextWrId++, WcStatus.SUCCESS, WcOpcode.RECV, 0, 64, 0, 17, 18, 0, 0, false);
    }

    @Benchmark
    @Group("nicAndPoller")
    @GroupThreads(1)
    public int poller(Poller p) {
        int n = cq.poll(p.out, batch);
        p.completions += n;
        return n;
    }
}
