package io.jrxe.tools.fabric;

import io.jrxe.rnic.cc.Dcqcn;
import io.jrxe.rnic.cc.DcqcnParameters;
import io.jrxe.rnic.cc.Timely;
import io.jrxe.rnic.cc.TimelyParameters;
import io.jrxe.wire.sim.VirtualTime;
import io.jrxe.wire.sim.fabric.PfcThresholds;
import io.jrxe.wire.sim.fabric.RedMarking;
import io.jrxe.wire.stats.CounterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The textbook shapes on real jrxe NICs in the simulated fabric, 10 ms of virtual time each at 10 Gbit/s: DCQCN with
 * ECN converges an 8-to-1 incast to fair shares without a drop; with no congestion control and no PFC the same incast
 * drops, goes back N and delivers less; PFC alone drops nothing but slows a victim flow whose path is not congested.
 */
class FabricRunTest {
    private static final long TEN_GBIT = 10_000_000_000L;
    private static final long TEN_MS = 10_000_000L;
    private static final RedMarking RED = new RedMarking(20 * 1024, 200 * 1024, 0.2);
    /**
     * Each queue has a buffer of its own (256 KiB), so PFC drops nothing only while every ingress that feeds one
     * queue can hold XOFF plus what is on its link when the pause goes out: 9 × (16 KiB + about 3 KiB) here.
     */
    private static final PfcThresholds PFC = new PfcThresholds(16 * 1024, 8 * 1024);

    private static FabricScenario incast(String cc, boolean ecn, PfcThresholds pfc, String topology) {
        return new FabricScenario(topology, 8, TEN_GBIT, 1_000, 256 * 1024, RED, pfc, cc, ecn, TEN_MS, 0, 65536, 8,
                1024, 1, 100);
    }

    private static double goodput(FabricResult r) {
        return r.flows().stream().filter(f -> !f.victim()).mapToDouble(FabricResult.Flow::goodputBits).sum();
    }

    @Test
    void dcqcnWithEcnSharesTheBottleneckFairlyKeepsItBusyAndDropsNothing() throws Exception {
        FabricResult r = FabricRun.run(incast("dcqcn", true, null, "incast"));

        assertThat(r.drops()).isZero();
        assertThat(r.retries()).isZero();
        assertThat(r.marks()).isPositive();
        // A CNP still on its way when the run ends is sent and not yet received: at most one per flow.
        assertThat(r.cnpsSent()).isPositive().isBetween(r.cnpsReceived(), r.cnpsReceived() + r.flows().size());
        assertThat(r.flows()).allSatisfy(f -> assertThat(f.rateCuts()).isPositive());
        assertThat(r.jain()).as("Jain's index over the second half").isGreaterThanOrEqualTo(0.95);
        assertThat(r.utilisation()).as("the bottleneck's busy share over the second half").isGreaterThanOrEqualTo(0.9);
        FabricResult.Queue bottleneck = r.queues().stream().filter(q -> q.name().equals(r.bottleneck())).findFirst()
                .orElseThrow();
        assertThat(bottleneck.name()).isEqualTo("sw>10.2.0.1");
        assertThat(bottleneck.meanDepthBytes()).as("the queue stays about the marking thresholds, not at the buffer")
                .isBetween((double) RED.kminBytes() / 4, (double) RED.kmaxBytes());
    }

    @Test
    void withNoCongestionControlAndNoPfcTheIncastDropsResendsAndDeliversLess() throws Exception {
        FabricResult none = FabricRun.run(incast("none", false, null, "incast"));
        FabricResult dcqcn = FabricRun.run(incast("dcqcn", true, null, "incast"));

        assertThat(none.drops()).isPositive();
        assertThat(none.retries()).as("go-back-N after the drops").isPositive();
        assertThat(none.marks()).as("Not-ECT packets are never marked").isZero();
        assertThat(none.cnpsSent()).isZero();
        long delivered = none.flows().stream().mapToLong(FabricResult.Flow::deliveredBytes).sum();
        long written = none.flows().stream().mapToLong(FabricResult.Flow::completedBytes).sum();
        assertThat(delivered).as("resent packets cross the bottleneck too").isGreaterThan(written);
        assertThat(goodput(none)).isLessThan(goodput(dcqcn));
        assertThat(none.jain()).isLessThan(dcqcn.jain());
    }

    @Test
    void pfcAloneDropsNothingButSlowsTheVictimBehindThePausedLink() throws Exception {
        FabricResult pfc = FabricRun.run(incast("none", false, PFC, "victim"));
        FabricResult drop = FabricRun.run(incast("none", false, null, "victim"));

        assertThat(pfc.drops()).isZero();
        assertThat(pfc.pausesSent()).isPositive();
        FabricResult.Flow victim = pfc.flows().getLast();
        assertThat(victim.victim()).isTrue();
        assertThat(victim.pausedNanos()).isPositive();
        assertThat(victim.goodputBits()).as("its own path is uncongested, yet it gets under half its link")
                .isLessThan(TEN_GBIT / 2.0);
        FabricResult.Flow unpaused = drop.flows().getLast();
        assertThat(drop.drops()).isPositive();
        assertThat(unpaused.goodputBits()).as("without PFC the victim keeps most of its link")
                .isGreaterThan(0.8 * TEN_GBIT);
    }

    @Test
    void withDcqcnMarkingBelowXoffPfcPausesOnlyAtTheStartAndTheVictimKeepsMostOfItsLink() throws Exception {
        FabricScenario s = new FabricScenario("victim", 8, TEN_GBIT, 1_000, 1024 * 1024,
                new RedMarking(5 * 1024, 40 * 1024, 0.2), new PfcThresholds(48 * 1024, 32 * 1024), "dcqcn", true,
                TEN_MS, 0, 65536, 8, 1024, 1, 100);
        FabricResult both = FabricRun.run(s);
        FabricResult pfcAlone = FabricRun.run(incast("none", false, PFC, "victim"));

        assertThat(both.drops()).isZero();
        assertThat(both.pausesSent()).isPositive().isLessThan(pfcAlone.pausesSent() / 10);
        assertThat(both.flows().getLast().secondHalfGoodputBits()).isGreaterThan(0.7 * TEN_GBIT);
        assertThat(both.jain()).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void theSameSeedGivesTheSameRun() throws Exception {
        FabricScenario s = new FabricScenario("dumbbell", 3, TEN_GBIT, 1_000, 128 * 1024, RED, null, "dcqcn", true,
                2_000_000L, 0, 65536, 4, 1024, 42, 20);
        FabricResult a = FabricRun.run(s);
        FabricResult b = FabricRun.run(s);
        assertThat(a.fingerprint()).isEqualTo(b.fingerprint());
        assertThat(a.flows()).isEqualTo(b.flows());
        assertThat(a.marks()).isEqualTo(b.marks()).isPositive();
    }

    /** Both rate-based parts climb to the host link's rate, not their own default line rate, and cut to a hundredth. */
    @Test
    void rateBasedPartsRunAtTheHostLinksRate() {
        VirtualTime time = new VirtualTime();
        CounterRegistry counters = new CounterRegistry();
        TimelyParameters timely = ((Timely) FabricHost.congestionControl(
                incast("timely", true, null, "incast")).create(time, counters)).parameters();
        assertThat(timely.lineRateBitsPerSecond()).isEqualTo(TEN_GBIT);
        assertThat(timely.minRateBitsPerSecond()).isEqualTo(TEN_GBIT / 100);
        DcqcnParameters dcqcn = ((Dcqcn) FabricHost.congestionControl(
                incast("dcqcn", true, null, "incast")).create(time, new CounterRegistry())).parameters();
        assertThat(dcqcn.lineRateBitsPerSecond()).isEqualTo(TEN_GBIT);
        assertThat(dcqcn.minRateBitsPerSecond()).isEqualTo(TEN_GBIT / 100);
    }
}
