package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.memory.OdpSettings;
import io.jrxe.rnic.memory.RemoteFaultPolicy;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.OdpCapabilities;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

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
 * On-demand paging between two simulated NICs whose MRs are ON_DEMAND: transfers move the right bytes and fault each
 * page they touch exactly once, invalidated pages fault again, prefetched ones never; a device that answers a peer's
 * fault with an RNR NAK completes the request on the retry; and the refusals of bad input.
 */
class OdpTransfersTest {
    private static final int PAGE = 4096;
    private static final int ODP_ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ
            | Access.REMOTE_ATOMIC | Access.ON_DEMAND;

    private static SimPair.Config odp() {
        return new SimPair.Config(QpType.RC).mrAccess(ODP_ACCESS);
    }

    private static SimPair.Config rnrNaking(long faultCostNanos) {
        return odp().minRnrTimer(1).device(d -> d.withOdp(OdpSettings.RXE.withRemoteFaults(RemoteFaultPolicy.RNR_NAK)
                .withFaultCost(faultCostNanos)));
    }

    /** A WRITE of A's first {@code length} bytes (seeded) into B at remoteOff: it succeeds and lands byte for byte. */
    private static void writeLands(SimPair p, int length, long remoteOff, long seed) throws VerbsException {
        fill(p.a.memory, 0, length, seed);
        p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, length, p.b, remoteOff));
        p.awaitOn(p.a, 1, 0, 100 * MS);
        assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
        assertSameBytes(p.b.memory, remoteOff, p.a.memory, 0, length);
    }

    @Test
    void writeAndReadMoveTheRightBytesAndFaultEachPageTheyTouchOnce() throws Exception {
        try (SimPair p = new SimPair(1, odp())) {
            assertThat(p.odpFaults(p.a) + p.odpFaults(p.b)).as("registration brings nothing in").isZero();
            writeLands(p, 3 * PAGE, PAGE, 11);

            assertThat(p.odpFaults(p.a)).as("the gather of A's pages 0..2").isEqualTo(3);
            assertThat(p.odpFaults(p.b)).as("the WRITE into B's pages 1..3, 1 KiB packets four to a page").isEqualTo(3);

            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_READ, 16 * PAGE, 3 * PAGE, p.b, PAGE));
            p.awaitOn(p.a, 1, 0, 100 * MS);

            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.a.memory, 16 * PAGE, p.a.memory, 0, 3 * PAGE);
            assertThat(p.odpFaults(p.b)).as("B's pages were in already").isEqualTo(3);
            assertThat(p.odpFaults(p.a)).as("the READ's scatter into A's pages 16..18").isEqualTo(6);
            assertThat(p.counter(p.b, Counter.ODP_FAULT_NANOS)).isEqualTo(3 * OdpSettings.DEFAULT_FAULT_COST_NANOS);
        }
    }

    @Test
    void aSendGathersAndScattersThroughFaults() throws Exception {
        try (SimPair p = new SimPair(2, odp())) {
            fill(p.a.memory, 0, 5000, 12);
            p.b.qp.postRecv(recv(p.b, 2 * PAGE, 2 * PAGE, 7));
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 5000));
            p.awaitCompletions(1, 1, 100 * MS);

            assertThat(p.recvCompletions(p.b).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.recvCompletions(p.b).getFirst().byteLen()).isEqualTo(5000);
            assertSameBytes(p.b.memory, 2 * PAGE, p.a.memory, 0, 5000);
            assertThat(p.odpFaults(p.a)).isEqualTo(2);
            assertThat(p.odpFaults(p.b)).isEqualTo(2);
        }
    }

    @Test
    void anInvalidatedPageFaultsAgainOnTheNextTransfer() throws Exception {
        try (SimPair p = new SimPair(3, odp())) {
            writeLands(p, 2 * PAGE, 0, 13);
            assertThat(p.odpFaults(p.b)).isEqualTo(2);

            p.b.mr.invalidate(p.b.memory.address() + PAGE, PAGE);
            writeLands(p, 2 * PAGE, 0, 14);

            assertThat(p.counter(p.b, Counter.ODP_INVALIDATIONS)).isEqualTo(1);
            assertThat(p.odpFaults(p.b)).as("only the invalidated page").isEqualTo(3);
        }
    }

    @Test
    void aRemoteFaultIsAnsweredWithAnRnrNakAndTheRetrySucceeds() throws Exception {
        // The fault cost (5 us) is shorter than the RNR timer (code 1, 10 us): in virtual time the first retry finds the
        // pages in; in real time a retry can still come first and be NAKed again.
        try (SimPair p = new SimPair(4, rnrNaking(5 * US))) {
            writeLands(p, 2 * PAGE, 4 * PAGE, 15);

            long naks = p.counter(p.b, Counter.ODP_RNR_NAKS);
            assertNaks(naks, 1);
            assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isEqualTo(naks);
            assertThat(p.odpFaults(p.b)).isEqualTo(2);

            p.b.memory.set(ValueLayout.JAVA_LONG, 9 * PAGE, 40);
            SendWr add = rdma(p.a, WrOpcode.ATOMIC_FETCH_AND_ADD, 8 * PAGE, 8, p.b, 9 * PAGE);
            add.compareAdd = 2;
            p.a.qp.postSend(add);
            p.awaitOn(p.a, 1, 0, 100 * MS);

            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.b.memory.get(ValueLayout.JAVA_LONG, 9 * PAGE)).as("executed once").isEqualTo(42);
            assertThat(p.a.memory.get(ValueLayout.JAVA_LONG, 8 * PAGE)).isEqualTo(40);
            long afterAtomic = p.counter(p.b, Counter.ODP_RNR_NAKS);
            assertNaks(afterAtomic - naks, 1);

            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_READ, 12 * PAGE, PAGE, p.b, 4 * PAGE));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.SUCCESS);
            assertSameBytes(p.a.memory, 12 * PAGE, p.a.memory, 0, PAGE);
            assertThat(p.counter(p.b, Counter.ODP_RNR_NAKS)).as("the READ's page was in").isEqualTo(afterAtomic);
        }
    }

    @Test
    void pagesSlowerThanTheRnrTimerCostMoreNaksButOneFaultEach() throws Exception {
        try (SimPair p = new SimPair(5, rnrNaking(55 * US))) {
            writeLands(p, 3 * PAGE, 0, 16);

            if (!FixtureWire.ON_SHM) { // real time: a retry late by more than the fault cost finds the pages in
                assertThat(p.counter(p.b, Counter.ODP_RNR_NAKS)).isGreaterThan(1);
            }
            assertThat(p.counter(p.b, Counter.ODP_RNR_NAKS)).isPositive();
            assertThat(p.counter(p.a, Counter.RCVD_RNR_ERR)).isEqualTo(p.counter(p.b, Counter.ODP_RNR_NAKS));
            assertThat(p.odpFaults(p.b)).isEqualTo(3);
        }
    }

    /** {@code naks} RNR NAKs: exactly {@code inVirtualTime} on the simulated network, at least one in real time. */
    static void assertNaks(long naks, long inVirtualTime) {
        if (FixtureWire.ON_SHM) {
            assertThat(naks).isPositive();
        } else {
            assertThat(naks).isEqualTo(inVirtualTime);
        }
    }

    @Test
    void prefetchedPagesNeverFaultNorNak() throws Exception {
        try (SimPair p = new SimPair(6, rnrNaking(5 * US))) {
            p.b.mr.advisePrefetch(p.b.memory.address(), 2 * PAGE, true, true);
            p.b.mr.advisePrefetch(p.b.memory.address() + 2 * PAGE, 2 * PAGE, false, false);
            p.run(MS); // the pages of the prefetch without FLUSH arrive after the fault cost
            p.a.mr.advisePrefetch(p.a.memory.address(), 4 * PAGE, false, true);

            writeLands(p, 4 * PAGE, 0, 17);

            assertThat(p.counter(p.b, Counter.ODP_PREFETCHED_PAGES)).isEqualTo(4);
            assertThat(p.counter(p.a, Counter.ODP_PREFETCHED_PAGES)).isEqualTo(4);
            assertThat(p.odpFaults(p.a) + p.odpFaults(p.b)).isZero();
            assertThat(p.counter(p.b, Counter.ODP_RNR_NAKS)).isZero();
        }
    }

    @Test
    void aWriteToOdpMemoryFreedOrDeregisteredWhileItsPagesComeInFailsWithARemoteAccessError() throws Exception {
        try (SimPair p = new SimPair(7, rnrNaking(FixtureWire.pageStillOnItsWay(MS)))) {
            Arena freed = Arena.ofShared();
            MemorySegment memory = freed.allocate(2 * PAGE, PAGE);
            Mr mr = p.b.pd.regMr(memory, ODP_ACCESS);
            SendWr write = wr(p.a, WrOpcode.RDMA_WRITE, 0, PAGE);
            write.remoteAddr = memory.address();
            write.rkey = mr.rkey();
            p.a.qp.postSend(write);
            p.run(100 * US, () -> p.counter(p.b, Counter.ODP_RNR_NAKS) > 0); // NAKed; the page still on its way
            assertThat(p.counter(p.b, Counter.ODP_RNR_NAKS)).isPositive();
            freed.close();

            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
            mr.close();
        }
        try (SimPair p = new SimPair(8, rnrNaking(FixtureWire.pageStillOnItsWay(MS)))) {
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, PAGE, p.b, 0));
            p.run(100 * US, () -> p.counter(p.b, Counter.ODP_RNR_NAKS) > 0);
            assertThat(p.counter(p.b, Counter.ODP_RNR_NAKS)).isPositive();
            p.b.mr.close();

            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void aSendFromOdpMemoryFreedAfterRegistrationFailsWithALocalProtectionError() throws Exception {
        try (SimPair p = new SimPair(9, odp())) {
            Arena freed = Arena.ofShared();
            MemorySegment memory = freed.allocate(PAGE, PAGE);
            Mr mr = p.a.pd.regMr(memory, ODP_ACCESS);
            freed.close();
            p.b.qp.postRecv(recv(p.b, 0, PAGE, 1));
            SendWr send = new SendWr(1);
            send.opcode = WrOpcode.SEND;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(memory.address(), 100, mr.lkey());
            p.a.qp.postSend(send);
            p.awaitOn(p.a, 1, 0, 100 * MS);

            assertThat(p.onlyCompletion(p.a).status()).isEqualTo(WcStatus.LOC_PROT_ERR);
            assertThat(p.odpFaults(p.a)).isZero();
        }
    }

    @Test
    void theOdpCapsSayWhatTheDeviceAccepts() throws Exception {
        try (SimPair p = new SimPair(12, odp())) {
            assertThat(p.a.ctx.queryDevice().odpCapabilities()).as("rxe's since Linux 6.16").isEqualTo(OdpCapabilities.RXE);
        }
        try (SimPair p = new SimPair(13, new SimPair.Config(QpType.RC).device(d -> d.withOdp(OdpSettings.DISABLED)))) {
            assertThat(p.a.ctx.queryDevice().odpCapabilities()).isEqualTo(OdpCapabilities.NONE);
        }
        // Caps without ODP switch it off, as the settings do: the device refuses what its caps do not offer.
        try (SimPair p = new SimPair(14, new SimPair.Config(QpType.RC).device(d -> d.withAttributes(
                d.attributes().toBuilder().odpCapabilities(OdpCapabilities.NONE).build())))) {
            assertThat(p.a.ctx.queryDevice().odpCapabilities().supported()).isFalse();
            assertRefused(() -> p.a.pd.regMr(p.a.memory, ODP_ACCESS), Errno.EOPNOTSUPP, "without on-demand paging");
        }
    }

    @Test
    void badInputIsRefusedWithAnErrno() throws Exception {
        try (SimPair p = new SimPair(10, new SimPair.Config(QpType.RC).device(d -> d.withOdp(OdpSettings.DISABLED)))) {
            assertRefused(() -> p.a.pd.regMr(p.a.memory, ODP_ACCESS), Errno.EOPNOTSUPP, "without on-demand paging");
            Mr pinned = p.a.mr;
            assertRefused(() -> pinned.invalidate(pinned.iova(), PAGE), Errno.EINVAL, "was not registered ON_DEMAND");
            assertRefused(() -> pinned.advisePrefetch(pinned.iova(), PAGE, false, true), Errno.EINVAL,
                    "was not registered ON_DEMAND");
        }
        try (SimPair p = new SimPair(11, odp())) {
            Mr mr = p.b.mr;
            long end = mr.iova() + mr.length();
            assertRefused(() -> mr.invalidate(end - 1, 2), Errno.EINVAL, "is outside MR");
            assertRefused(() -> mr.advisePrefetch(mr.iova() - PAGE, PAGE, false, false), Errno.EINVAL, "is outside MR");
            assertRefused(() -> mr.advisePrefetch(mr.iova(), -1, false, true), Errno.EINVAL, "is outside MR");
            assertThat(p.counter(p.b, Counter.ODP_INVALIDATIONS) + p.counter(p.b, Counter.ODP_PREFETCHED_PAGES)).isZero();
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
