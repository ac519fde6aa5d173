package io.jrxe.tools.fabric;

import io.jrxe.wire.sim.fabric.PfcThresholds;
import io.jrxe.wire.sim.fabric.QueueSettings;
import io.jrxe.wire.sim.fabric.RedMarking;

/**
 * What one `jrxe fabric` run simulates.
 *
 * @param topology       incast, dumbbell or victim
 * @param linkBits       every host link's rate, bit/s
 * @param delayNanos     every link's propagation delay
 * @param marking        the switch queues' ECN marking
 * @param pfc            PFC thresholds, or null for tail drop
 * @param cc             the NICs' congestion control: none, dcqcn or timely
 * @param ecn            whether the NICs send ECN-capable packets
 * @param durationNanos  how long the flows send (virtual time); with {@code bytesPerFlow}, the most a run may take
 * @param bytesPerFlow   bytes each flow writes, then stops; 0: send for the duration
 * @param messageBytes   the size of each RDMA WRITE
 * @param depth          WRITEs each flow keeps outstanding
 * @param mtu            the path MTU
 * @param samples        snapshots over the run (the plot's points, the second half's boundary)
 */
record FabricScenario(String topology, int senders, long linkBits, long delayNanos, long bufferBytes,
                      RedMarking marking, PfcThresholds pfc, String cc, boolean ecn, long durationNanos,
                      long bytesPerFlow, int messageBytes, int depth, int mtu, long seed, int samples) {
    QueueSettings queues() {
        return new QueueSettings(bufferBytes, marking, pfc);
    }
}
