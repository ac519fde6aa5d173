package io.jrxe.tools.fabric;

import java.util.List;

/**
 * What a `jrxe fabric` run measured: per flow, per switch queue, and over the bottleneck in the second half of the
 * run (after the flows' start, where a congestion control has had its time to converge).
 *
 * @param fingerprint     the simulated network's hash of every delivery and drop: equal for equal runs
 * @param simulatedNanos  the virtual time the run took
 * @param halfNanos       where the second half starts
 * @param jain            Jain's fairness index of the flows' goodput in the second half (the victim left out)
 * @param utilisation     the bottleneck link's busy share in the second half
 * @param drops           frames the switches dropped
 * @param series          the bottleneck's depth and each flow's delivered bytes over time
 */
record FabricResult(FabricScenario scenario, long fingerprint, long simulatedNanos, long halfNanos, String bottleneck,
                    List<Flow> flows, List<Queue> queues, double jain, double utilisation, long drops, long marks,
                    long pausesSent, long cnpsSent, long cnpsReceived, long retries, Series series) {
    /**
     * One flow.
     *
     * @param goodputBits          written bytes acknowledged, per second of the whole run (or to its completion)
     * @param secondHalfGoodputBits the same over the second half
     * @param completionNanos      when its last byte was acknowledged, -1 when it sent for a duration
     * @param deliveredBytes       RoCE bytes the fabric delivered to its receiver, resent ones included
     * @param retries              times its requester went back (go-back-N), the NIC's completer_retry_err
     * @param pausedNanos          the time its host link spent paused by PFC
     */
    record Flow(String name, boolean victim, long completedBytes, double goodputBits, double secondHalfGoodputBits,
                long completionNanos, long deliveredBytes, long sentPackets, long retries, long cnpsReceived,
                long rateCuts, long pausedNanos, String failure) {
    }

    /** One switch output queue. */
    record Queue(String name, long maxDepthBytes, double meanDepthBytes, long marks, long drops, long pausesReceived,
                 long pausedNanos, double utilisation) {
    }

    /** Points over time: the bottleneck's depth, and each flow's rate (delivered bytes) between points. */
    record Series(double[] millis, double[] depthKib, List<String> flowNames, List<double[]> flowGbits) {
    }
}
