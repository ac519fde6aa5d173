package io.jrxe.wire.sim.fabric;

import java.util.ArrayList;
import java.util.List;

/**
 * Snapshots of a fabric over virtual time, taken when its owner asks: the depth and busy time of chosen queues and
 * the bytes delivered for chosen flows. Rates are differences between snapshots.
 */
public final class FabricSampler {
    /**
     * One snapshot.
     *
     * @param depthBytes     each watched queue's depth, in the order given
     * @param busyNanos      each watched queue's link busy time so far
     * @param deliveredBytes each flow's RoCE bytes delivered so far (resent ones included)
     */
    public record Sample(long nanos, long[] depthBytes, long[] busyNanos, long[] deliveredBytes) {
    }

    private final Fabric fabric;
    private final List<OutputQueue> queues;
    private final List<HostPair> flows;
    private final List<Sample> samples = new ArrayList<>();

    public FabricSampler(Fabric fabric, List<OutputQueue> queues, List<HostPair> flows) {
        this.fabric = fabric;
        this.queues = List.copyOf(queues);
        this.flows = List.copyOf(flows);
    }

    public Sample sample() {
        Sample s = new Sample(fabric.clock().nanoTime(),
                queues.stream().mapToLong(OutputQueue::depthBytes).toArray(),
                queues.stream().mapToLong(OutputQueue::busyNanos).toArray(),
                flows.stream().mapToLong(fabric::deliveredBytes).toArray());
        samples.add(s);
        return s;
    }

    public List<Sample> samples() {
        return List.copyOf(samples);
    }
}
