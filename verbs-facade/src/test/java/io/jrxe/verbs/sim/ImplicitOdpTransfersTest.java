package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.rnic.memory.RemoteFaultPolicy;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.OdpCapabilities;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.US;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Implicit on-demand paging between two simulated NICs: each side maps its memory into its device's address space
 * and reaches it through one implicit MR (the fixture's {@code mr} is replaced by it, so every work request below
 * names the implicit keys). Transfers move the right bytes and fault each page once on each side; memory unmapped or
 * freed is refused as a freed MR is, also between two packets of a READ's response; the RNR_NAK policy, prefetch
 * and invalidation work on it; and what it cannot do is refused with an errno.
 */
class ImplicitOdpTransfersTest {
    private static final int PAGE = 4096;
    private static final int IMPLICIT_ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ
            | Access.REMOTE_ATOMIC | Access.ON_DEMAND;

    private static SimPair.Config implicit() {
        return new SimPair.Config(QpType.RC).device(d -> d.withImplicitOdp(true));
    }

    /** Both sides' memory mapped and reached through an implicit MR instead of the fixture's pinned one. */
    private static SimPair pair(long seed, SimPair.Config config) throws Exception {
        SimPair p = new SimPair(seed, config);
        for (SimPair.Side s : new SimPair.Side[] {p.a, p.b}) {
            s.ctx.addressSpace().map(s.memory);
            s.mr = s.pd.regMrImplicit(IMPLICIT_ACCESS);
        }
        return p;
    }

    private static void noEngineErrors(SimPair p) {
        assertThat(p.counter(p.a, Counter.ENGINE_ERROR) + p.counter(p.b, Counter.ENGINE_ERROR)).isZero();
    }

    @Test
    void writeReadSendAndAnAtomicMoveTheRightBytesAndFaultEachPageOnce() throws Exception {
        try (SimPair p = pair(1, implicit())) {
            assertThat(p.a.mr.iova()).isZero();
            assertThat(p.a.mr.length()).as("SIZE_MAX read unsigned").isEqualTo(-1);
            assertThat(p.a.mr.memory()).isNull();

            fill(p.a.memory, 0, 3 * PAGE, 21);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 3 * PAGE, p.b, PAGE));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, PAGE, p.a.memory, 0, 3 * PAGE);
            assertThat(p.odpFaults(p.a)).as("the gather of A's pages 0..2").isEqualTo(3);
            assertThat(p.odpFaults(p.b)).as("the WRITE into B's pages 1..3, four packets a page").isEqualTo(3);

            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_READ, 16 * PAGE, 3 * PAGE, p.b, PAGE));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.a.memory, 16 * PAGE, p.a.memory, 0, 3 * PAGE);
            assertThat(p.odpFaults(p.b)).as("B's pages were in already").isEqualTo(3);
            assertThat(p.odpFaults(p.a)).as("the READ's scatter into A's pages 16..18").isEqualTo(6);

            fill(p.a.memory, 32 * PAGE, 5000, 22);
            p.b.qp.postRecv(recv(p.b, 40 * PAGE, 2 * PAGE, 7));
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 32 * PAGE, 5000));
            p.awaitCompletions(1, 1, 100 * MS);
            assertThat(p.recvCompletions(p.b).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.recvCompletions(p.b).getFirst().byteLen()).isEqualTo(5000);
            assertSameBytes(p.b.memory, 40 * PAGE, p.a.memory, 32 * PAGE, 5000);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.odpFaults(p.a)).as("the SEND's gather from A's pages 32 and 33").isEqualTo(8);
            assertThat(p.odpFaults(p.b)).as("the receive's scatter into B's pages 40 and 41").isEqualTo(5);

            p.b.memory.set(ValueLayout.JAVA_LONG, 50 * PAGE, 40);
            SendWr add = rdma(p.a, WrOpcode.ATOMIC_FETCH_AND_ADD, 48 * PAGE, 8, p.b, 50 * PAGE);
            add.compareAdd = 2;
            p.a.qp.postSend(add);
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG, 50 * PAGE)).isEqualTo(42);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 48 * PAGE)).as("the original value").isEqualTo(40);
            assertThat(p.odpFaults(p.a)).as("the original's scatter into A's page 48").isEqualTo(9);
            assertThat(p.odpFaults(p.b)).as("the atomic on B's page 50").isEqualTo(6);
            assertThat(p.counter(p.b, Counter.ODP_FAULT_NANOS)).isEqualTo(6 * OdpSettings.DEFAULT_FAULT_COST_NANOS);
            noEngineErrors(p);
        }
    }

    @Test
    void theCapsSayImplicitOnlyWhenItIsOn() throws Exception {
        try (SimPair p = pair(2, implicit())) {
            OdpCapabilities caps = p.a.ctx.queryDevice().odpCapabilities();
            assertThat(caps.general()).isEqualTo(OdpCapabilities.SUPPORT | OdpCapabilities.SUPPORT_IMPLICIT);
            assertThat(caps.generalNames()).containsExactly("ODP_SUPPORT", "ODP_SUPPORT_IMPLICIT");
            assertThat(new OdpCapabilities(OdpCapabilities.RXE.general(), caps.rc(), caps.uc(), caps.ud()))
                    .as("everything else as rxe's").isEqualTo(OdpCapabilities.RXE);
        }
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC))) {
            assertThat(p.a.ctx.queryDevice().odpCapabilities()).as("rxe's by default").isEqualTo(OdpCapabilities.RXE);
            assertRefused(() -> p.a.pd.regMrImplicit(IMPLICIT_ACCESS), Errno.EOPNOTSUPP, "jrxe0.odp_implicit = on");
        }
    }

    @Test
    void unmappedMemoryIsRefusedLocallyAndRemotely() throws Exception {
        try (SimPair p = pair(4, implicit())) {
            MemorySegment aBuffer = p.a.memory;
            p.b.ctx.addressSpace().unmap(p.b.memory);

            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 0));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.odpFaults(p.b)).isZero();
            AsyncEvent event = p.b.ctx.awaitAsyncEvent(10, TimeUnit.SECONDS); // on shm it may still be on its way
            assertThat(event.type()).isEqualTo(AsyncEventType.QP_ACCESS_ERR);
            assertThat(event.reason()).contains("not inside one segment mapped");
        }
        try (SimPair p = pair(5, implicit())) {
            p.a.ctx.addressSpace().unmap(p.a.memory);
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 100));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            WorkCompletion c = p.onlyCompletion(p.a);
            assertThat(c.status()).isEqualTo(WcStatus.LOC_PROT_ERR);
            assertThat(c.vendorErr()).as("not mapped").isEqualTo(10);
            noEngineErrors(p);
        }
    }

    @Test
    void freedMemoryStillMappedIsRefusedAsAFreedMrIs() throws Exception {
        try (SimPair p = pair(6, implicit())) {
            Arena arena = Arena.ofShared();
            MemorySegment freed = arena.allocate(2 * PAGE, PAGE);
            p.a.ctx.addressSpace().map(freed);
            arena.close();

            SendWr send = new SendWr(1);
            send.opcode = WrOpcode.SEND;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(freed.address(), 100, p.a.mr.lkey());
            p.a.qp.postSend(send);
            p.awaitOn(p.a, 1, 0, 100 * MS);
            WorkCompletion local = p.onlyCompletion(p.a);
            assertThat(local.status()).isEqualTo(WcStatus.LOC_PROT_ERR);
            assertThat(local.vendorErr()).as("memory freed").isEqualTo(9);
        }
        try (SimPair p = pair(7, implicit())) {
            Arena arena = Arena.ofShared();
            MemorySegment freed = arena.allocate(PAGE, PAGE);
            p.b.ctx.addressSpace().map(freed);
            arena.close();
            SendWr write = wr(p.a, WrOpcode.RDMA_WRITE, 0, 64);
            write.remoteAddr = freed.address();
            write.rkey = p.b.mr.rkey();
            p.a.qp.postSend(write);
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.b.ctx.awaitAsyncEvent(10, TimeUnit.SECONDS).reason()).contains("freed");
            p.b.ctx.addressSpace().unmap(freed);
            noEngineErrors(p);
        }
    }

    @Test
    @Tag(FixtureWire.VIRTUAL_TIME)
    void memoryUnmappedWhileAReadsResponseIsOnItsWayEndsItWithARemoteAccessError() throws Exception {
        try (SimPair p = pair(8, implicit())) {
            int pages = 128;
            fill(p.b.memory, 0, (long) pages * PAGE, 23);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_READ, 0, pages * PAGE, p.b, 0));
            assertThat(p.runUntil(() -> p.odpFaults(p.b) >= 2, 100 * MS)).as("the response under way").isTrue();
            assertThat(p.odpFaults(p.b)).as("and not all of it sent").isLessThan(pages);

            p.b.ctx.addressSpace().unmap(p.b.memory);

            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.b.ctx.pollAsyncEvent().reason()).contains("during a READ's response");
            assertThat(p.counter(p.b, Counter.ODP_INVALIDATIONS)).isEqualTo(1);
            noEngineErrors(p);
        }
    }

    @Test
    void theRnrNakPolicyAsksForAPeersPagesAndTheRetryFindsThem() throws Exception {
        // The fault cost (5 us) is shorter than the RNR timer (code 1, 10 us): in virtual time the first retry finds the
        // pages in; in real time a retry can still come first and be NAKed again.
        SimPair.Config config = new SimPair.Config(QpType.RC).minRnrTimer(1).device(d -> d.withOdp(
                OdpSettings.RXE.withRemoteFaults(RemoteFaultPolicy.RNR_NAK).withFaultCost(5 * US).withImplicit(true)));
        try (SimPair p = pair(9, config)) {
            fill(p.a.memory, 0, 2 * PAGE, 24);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 2 * PAGE, p.b, 4 * PAGE));
            p.awaitOn(p.a, 1, 0, 100 * MS);

            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.b.memory, 4 * PAGE, p.a.memory, 0, 2 * PAGE);
            long naks = p.counter(p.b, Counter.ODP_RNR_NAKS);
            OdpTransfersTest.assertNaks(naks, 1);
            assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isEqualTo(naks);
            assertThat(p.odpFaults(p.b)).isEqualTo(2);
        }
    }

    @Test
    void prefetchedPagesNeverFaultAndInvalidatedOnesFaultAgain() throws Exception {
        try (SimPair p = pair(10, implicit())) {
            long b0 = p.b.memory.address();
            p.b.mr.advisePrefetch(b0, 2 * PAGE, true, true);
            p.a.mr.advisePrefetch(p.a.memory.address(), 2 * PAGE, false, true);
            fill(p.a.memory, 0, 2 * PAGE, 25);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 2 * PAGE, p.b, 0));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.odpFaults(p.a) + p.odpFaults(p.b)).isZero();
            assertThat(p.counter(p.b, Counter.ODP_PREFETCHED_PAGES)).isEqualTo(2);

            p.b.mr.invalidate(b0 + PAGE, 1);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 2 * PAGE, p.b, 0));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.odpFaults(p.b)).as("only the invalidated page").isEqualTo(1);

            long end = b0 + p.b.memory.byteSize();
            assertRefused(() -> p.b.mr.advisePrefetch(end - PAGE, 2 * PAGE, false, true), Errno.EINVAL,
                    "is not inside one segment mapped");
            assertRefused(() -> p.b.mr.invalidate(end, 1), Errno.EINVAL, "is not inside one segment mapped");
        }
    }

    @Test
    void aTraceSeesEachPageFaultJustBeforeItsTranslationNumberedByThePage() throws Exception {
        SimPair.Config config = new SimPair.Config(QpType.RC).device(d -> d.withOdp(OdpSettings.RXE
                .withFaultCost(FixtureWire.pageStillOnItsWay(OdpSettings.DEFAULT_FAULT_COST_NANOS)).withImplicit(true)));
        try (SimPair p = pair(12, config)) {
            OdpTraceTest.PageRecorder onA = new OdpTraceTest.PageRecorder();
            SimPair.nic(p.a).trace(onA);
            p.a.mr.advisePrefetch(p.a.memory.address() + PAGE, PAGE, false, false);
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 2 * PAGE, p.b, 0));
            p.awaitOn(p.a, 1, 0, 100 * MS);

            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(onA.firstMttIndex).as("an implicit MR's MTT index is the page's number")
                    .isEqualTo(p.a.memory.address() >>> 12);
            assertThat(onA.pages).startsWith("fault 0", "dma 0").contains("arriving 1").doesNotContain("fault 1");
            assertThat(onA.pages.indexOf("arriving 1")).isEqualTo(onA.pages.indexOf("dma 1") - 1);
            assertThat(p.odpFaults(p.a)).isEqualTo(1);
        }
    }

    @Test
    void whatAnImplicitMrCannotDoAndBadMappingsAreRefused() throws Exception {
        try (SimPair p = pair(11, implicit())) {
            Mr implicit = p.a.pd.regMrImplicit(IMPLICIT_ACCESS | Access.MW_BIND);
            Mw mw = p.a.pd.allocMw(1);
            assertRefused(() -> mw.bind(implicit, p.a.memory.address(), 8, Access.REMOTE_READ), Errno.EINVAL,
                    "is implicit");
            assertRefused(() -> implicit.rereg(null, null, Access.ON_DEMAND), Errno.EOPNOTSUPP,
                    "cannot be re-registered");
            assertRefused(() -> p.a.pd.regMrImplicit(Access.LOCAL_WRITE), Errno.EINVAL, "must include ON_DEMAND");
            assertRefused(() -> p.a.ctx.addressSpace().map(p.a.memory), Errno.EINVAL, "is mapped already");
            assertRefused(() -> p.a.ctx.addressSpace().map(p.a.memory.asSlice(PAGE, PAGE)), Errno.EINVAL,
                    "overlaps the mapped segment");
            assertRefused(() -> p.a.ctx.addressSpace().unmap(p.a.memory.asSlice(0, PAGE)), Errno.EINVAL,
                    "no segment is mapped at");
            assertRefused(() -> p.a.ctx.addressSpace().map(null), Errno.EINVAL, "no segment");
            Context another = p.a.device.open();
            assertRefused(() -> another.addressSpace().map(p.a.memory), Errno.EINVAL, "is mapped already");
            another.close();
            mw.close();
            implicit.close();
        }
    }

    @FunctionalInterface
    private interface Verb {
        void run() throws VerbsException;
    }

    private static void assertRefused(Verb verb, Errno errno, String why) {
        assertThatThrownBy(verb::run)
                .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(errno))
                .hasMessageContaining(why);
    }
}
