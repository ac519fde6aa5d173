package io.jrxe.verbs.sim;

import io.jrxe.rnic.engine.TraceEvent;
import io.jrxe.rnic.engine.TraceListener;
import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.rdma;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DMA engine tells a trace listener of each ON_DEMAND page the MTT did not hold, just before that page's
 * translation: faulted in, or already on its way in after a prefetch that did not wait (taken then, not counted).
 * Which of the two a prefetched page is depends on time: on the shared-memory wire, in real time, the prefetch may have
 * ended before the gather came, unless a page takes longer to come in than the test runs.
 */
class OdpTraceTest {
    private static final int PAGE = 4096;

    /** "fault MTT[i]", "arriving MTT[i]" and "dma MTT[i]", in the order the NIC reported them. */
    static final class PageRecorder implements TraceListener {
        final List<String> pages = new ArrayList<>();
        long firstMttIndex = -1;

        @Override
        public void event(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value) {
        }

        @Override
        public void pageFault(int key, int mptIndex, long iova, long mttIndex, boolean arriving) {
            pages.add((arriving ? "arriving " : "fault ") + relative(mttIndex));
        }

        @Override
        public void translation(int key, int mptIndex, long iova, long mttIndex, long pageAddress, int pageOffset,
                                int length, boolean toMemory) {
            pages.add("dma " + relative(mttIndex));
        }

        private long relative(long mttIndex) {
            if (firstMttIndex < 0) {
                firstMttIndex = mttIndex;
            }
            return mttIndex - firstMttIndex;
        }
    }

    /**
     * A's pages as a 2-page WRITE from A gathers them, page 1 prefetched without waiting just before, a page costing
     * {@code faultCostNanos} to bring in.
     */
    private static List<String> writeAfterAPrefetch(long faultCostNanos) throws Exception {
        int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.ON_DEMAND;
        SimPair.Config config = new SimPair.Config(QpType.RC).mrAccess(access)
                .device(d -> d.withOdp(OdpSettings.RXE.withFaultCost(faultCostNanos)));
        try (SimPair p = new SimPair(1, config)) {
            PageRecorder onA = new PageRecorder();
            SimPair.nic(p.a).trace(onA);
            p.a.mr.advisePrefetch(p.a.memory.address() + PAGE, PAGE, false, false);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 2 * PAGE, p.b, 0));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a).removeFirst().status()).isEqualTo(WcStatus.SUCCESS);
            return onA.pages;
        }
    }

    @Test
    void aFaultPrecedesItsPagesTranslationAndAPrefetchedPageIsNotFaultedAgain() throws Exception {
        List<String> pages = writeAfterAPrefetch(OdpSettings.DEFAULT_FAULT_COST_NANOS);
        assertThat(pages).startsWith("fault 0", "dma 0").contains("dma 1").doesNotContain("fault 1");
        if (pages.contains("arriving 1")) { // real time: the prefetch may have ended before the gather came
            assertThat(pages.indexOf("arriving 1")).isEqualTo(pages.indexOf("dma 1") - 1);
        }
    }

    @Test
    void aPrefetchThatDidNotWaitIsArrivingWhenTheGatherReachesIt() throws Exception {
        List<String> pages = writeAfterAPrefetch(FixtureWire.pageStillOnItsWay(OdpSettings.DEFAULT_FAULT_COST_NANOS));
        // The page is on its way in (the fault cost) when the gather reaches it. The path MTU cuts a page into several
        // packets: only the first to reach a page finds it missing.
        assertThat(pages).startsWith("fault 0", "dma 0").contains("arriving 1").doesNotContain("fault 1");
        assertThat(pages.indexOf("arriving 1")).isEqualTo(pages.indexOf("dma 1") - 1);
        assertThat(pages.stream().filter(s -> !s.startsWith("dma"))).hasSize(2);
    }
}
