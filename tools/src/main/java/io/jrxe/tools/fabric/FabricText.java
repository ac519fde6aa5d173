package io.jrxe.tools.fabric;

import io.jrxe.wire.quantity.BitRate;
import io.jrxe.wire.quantity.ByteSize;
import io.jrxe.wire.quantity.TimeSpan;

import java.io.PrintWriter;
import java.util.Locale;

/** The text report of a `jrxe fabric` run: the scenario, a table of flows, one of the busy queues, the totals. */
final class FabricText {
    private FabricText() {
    }

    static void print(PrintWriter out, FabricResult r) {
        FabricScenario s = r.scenario();
        out.printf(Locale.ROOT, "fabric: %s, %d sender(s), links %s with %s delay, buffer %s per queue, RED %s..%s Pmax %s, "
                        + "PFC %s, cc %s, ECN %s%n", s.topology(), s.senders(), BitRate.text(s.linkBits()),
                TimeSpan.text(s.delayNanos()), ByteSize.unit(s.bufferBytes()), ByteSize.unit(s.marking().kminBytes()),
                ByteSize.unit(s.marking().kmaxBytes()), s.marking().pmax(),
                s.pfc() == null ? "off (tail drop)" : "on, XOFF " + ByteSize.unit(s.pfc().xoffBytes()) + " XON "
                        + ByteSize.unit(s.pfc().xonBytes()), s.cc(), s.ecn() ? "on" : "off");
        out.printf(Locale.ROOT, "seed %d  fingerprint %016x  simulated %s (second half from %s)  WRITEs of %s, %d "
                        + "outstanding, MTU %d%n%n", s.seed(), r.fingerprint(), TimeSpan.text(r.simulatedNanos()),
                TimeSpan.text(r.halfNanos()), ByteSize.unit(s.messageBytes()), s.depth(), s.mtu());
        out.printf(Locale.ROOT, "%-20s %13s %13s %12s %10s %10s %8s %6s %6s %10s%n", "flow", "goodput", "2nd half",
                "written", "done at", "sent pkts", "retries", "CNPs", "cuts", "paused");
        for (FabricResult.Flow f : r.flows()) {
            out.printf(Locale.ROOT, "%-20s %13s %13s %12s %10s %10d %8d %6d %6d %10s%s%n", f.name() + (f.victim() ? " *" : ""),
                    BitRate.text(f.goodputBits()), BitRate.text(f.secondHalfGoodputBits()), ByteSize.unit(f.completedBytes()),
                    f.completionNanos() < 0 ? "-" : TimeSpan.text(f.completionNanos()), f.sentPackets(),
                    f.retries(), f.cnpsReceived(), f.rateCuts(), TimeSpan.text(f.pausedNanos()),
                    f.failure() == null ? "" : "  failed: " + f.failure());
        }
        if (r.flows().stream().anyMatch(FabricResult.Flow::victim)) {
            out.println("* the victim flow: its own path is not congested");
        }
        out.println();
        out.printf(Locale.ROOT, "%-20s %12s %12s %8s %8s %8s %10s %6s%n", "switch queue", "max depth", "mean depth",
                "marks", "drops", "paused", "for", "busy");
        for (FabricResult.Queue q : r.queues()) {
            boolean bottleneck = q.name().equals(r.bottleneck());
            // A queue that only ever held the packet being sent (ACKs, CNPs) says nothing: it is left out.
            if (!bottleneck && q.maxDepthBytes() < 2 * 1024 && q.marks() == 0 && q.drops() == 0 && q.pausesReceived() == 0) {
                continue;
            }
            out.printf(Locale.ROOT, "%-20s %12s %12s %8d %8d %8d %10s %5.1f%%%s%n", q.name(), kib(q.maxDepthBytes()),
                    kib(q.meanDepthBytes()), q.marks(), q.drops(), q.pausesReceived(), TimeSpan.text(q.pausedNanos()),
                    100 * q.utilisation(), bottleneck ? "  bottleneck" : "");
        }
        out.println();
        long written = r.flows().stream().mapToLong(FabricResult.Flow::completedBytes).sum();
        long delivered = r.flows().stream().mapToLong(FabricResult.Flow::deliveredBytes).sum();
        double goodput = r.flows().stream().filter(f -> !f.victim()).mapToDouble(FabricResult.Flow::secondHalfGoodputBits).sum();
        out.printf(Locale.ROOT, "second half: goodput %s through the bottleneck, %.1f%% of its %s; bottleneck busy %.1f%%; "
                        + "Jain's fairness %.3f%n", BitRate.text(goodput), 100 * goodput / bottleneckRate(r),
                BitRate.text(bottleneckRate(r)), 100 * r.utilisation(), r.jain());
        out.printf(Locale.ROOT, "whole run: drops %d, go-back-N retries %d, %s written and acknowledged, %s of RoCE "
                        + "packets delivered (headers and resent packets included), marks %d, CNPs sent %d received %d, "
                        + "PAUSEs sent %d%n", r.drops(), r.retries(), ByteSize.full(written), ByteSize.full(delivered),
                r.marks(), r.cnpsSent(), r.cnpsReceived(), r.pausesSent());
    }

    /** The bottleneck's rate: every topology's bottleneck is a host-rate link. */
    private static double bottleneckRate(FabricResult r) {
        return r.scenario().linkBits();
    }

    private static String kib(double bytes) {
        return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024);
    }
}
