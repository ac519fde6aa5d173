package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Implicit on-demand paging in the translation tables alone: an implicit MR reaches the segments mapped into the
 * device's address space and nothing else, faults each page once, loses its pages when their segment is unmapped,
 * refuses freed memory, prefetches and invalidates mapped ranges only; and a device without implicit ODP refuses it.
 */
class ImplicitOnDemandPagingTest {
    private static final long PAGE = MptEntry.PAGE_SIZE;
    private static final long COST = 3_000;
    private static final int IMPLICIT_RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ
            | Access.REMOTE_ATOMIC | Access.ON_DEMAND;

    private final Arena arena = Arena.ofConfined();
    private final Counters counters = new Counters();
    private final HeldTimers timers = new HeldTimers();
    private final MemoryTables tables = tables(OdpSettings.RXE.withRemoteFaults(RemoteFaultPolicy.RNR_NAK)
            .withFaultCost(COST).withImplicit(true));
    private final ProtectionDomain pd = new ProtectionDomain(1);

    private MemoryTables tables(OdpSettings settings) {
        OnDemandPaging odp = settings.enabled() ? new OnDemandPaging(settings, counters, PageFaultHook.PINNED, timers) : null;
        return new MemoryTables(DeviceAttributes.rxeDefaults(), 1 << 16, PageFaultHook.PINNED, false, 1, odp);
    }

    @AfterEach
    void close() {
        arena.close();
    }

    private long faults() {
        return counters.get(Counter.ODP_PAGE_FAULTS);
    }

    /** A segment of {@code pages} whole pages, mapped. */
    private MemorySegment mapped(long pages) throws RnicException {
        MemorySegment memory = arena.allocate(pages * PAGE, PAGE);
        tables.mapSegment(memory);
        return memory;
    }

    @Test
    void registrationTakesOneMptEntryAndNoMttRunAndCoversTheWholeAddressSpace() throws RnicException {
        long freeBefore = tables.mtt().freeEntries();
        MptEntry mr = tables.registerImplicitMr(pd, IMPLICIT_RW);

        assertThat(mr.isImplicit()).isTrue();
        assertThat(mr.onDemand()).isTrue();
        assertThat(mr.iova()).isZero();
        assertThat(mr.length()).as("SIZE_MAX read unsigned").isEqualTo(-1);
        assertThat(Long.toUnsignedString(mr.length())).isEqualTo("18446744073709551615");
        assertThat(mr.rkey()).isEqualTo(mr.key());
        assertThat(tables.mrCount()).isEqualTo(1);
        assertThat(tables.mtt().freeEntries()).isEqualTo(freeBefore);

        tables.deregisterMr(mr.key());
        assertThat(tables.mtt().freeEntries()).as("nothing to give back").isEqualTo(freeBefore);
        assertThat(tables.mtt().largestFreeRun()).isEqualTo(freeBefore);
        assertThat(tables.lookup(mr.key())).isNull();
    }

    @Test
    void eachPageFaultsOnceAtTheFirstAccessAndTranslatesToItsOwnAddress() throws RnicException {
        MemorySegment memory = arena.allocate(4 * PAGE + 100, PAGE).asSlice(100);
        tables.mapSegment(memory);
        MptEntry mr = tables.registerImplicitMr(pd, IMPLICIT_RW);
        long start = memory.address();

        assertThat(tables.check(mr.key(), pd, start, memory.byteSize(), Access.LOCAL_WRITE, false))
                .isEqualTo(AccessError.NONE);
        for (long offset : new long[] {0, 5, PAGE - 101, PAGE - 100, 3 * PAGE, 4 * PAGE - 1}) {
            assertThat(tables.address(mr, start + offset)).isEqualTo(start + offset);
        }
        // From byte 100 of its first page: offsets 0..PAGE-101 are in page 0, PAGE-100 starts page 1, 3*PAGE is in
        // page 3 and 4*PAGE-1 in page 4.
        assertThat(faults()).isEqualTo(4);
        assertThat(counters.get(Counter.ODP_FAULT_NANOS)).isEqualTo(4 * COST);
        assertThat(tables.presentPages(mr.key(), start, memory.byteSize())).isEqualTo(4);
        assertThat(tables.segmentOf(mr, start + PAGE, 8)).isEqualTo(memory);

        Translation t = tables.inspect(mr.key(), start + 3 * PAGE + 7);
        assertThat(t.present()).isTrue();
        assertThat(t.mttIndex()).as("the page's number").isEqualTo((start + 3 * PAGE) >>> MptEntry.PAGE_SHIFT);
        assertThat(t.address()).isEqualTo(start + 3 * PAGE + 7);
        Translation notYet = tables.inspect(mr.key(), start + 2 * PAGE);
        assertThat(notYet.present()).isFalse();
        assertThat(faults()).as("looking does not fault").isEqualTo(4);
    }

    @Test
    void accessesOutsideEveryMappedSegmentAreRefused() throws RnicException {
        MemorySegment big = arena.allocate(8 * PAGE, PAGE);
        MemorySegment first = big.asSlice(0, 2 * PAGE);
        MemorySegment second = big.asSlice(2 * PAGE, 2 * PAGE);
        tables.mapSegment(first);
        tables.mapSegment(second);
        MptEntry mr = tables.registerImplicitMr(pd, IMPLICIT_RW);
        int rkey = mr.rkey();

        assertThat(tables.check(rkey, pd, second.address(), 2 * PAGE, Access.REMOTE_WRITE, true)).isEqualTo(AccessError.NONE);
        assertThat(tables.check(rkey, pd, big.address() + 4 * PAGE, 1, Access.REMOTE_READ, true))
                .as("allocated, never mapped").isEqualTo(AccessError.NOT_MAPPED);
        assertThat(tables.check(rkey, pd, second.address() + PAGE, PAGE + 1, Access.REMOTE_READ, true))
                .as("runs past its segment's end").isEqualTo(AccessError.NOT_MAPPED);
        assertThat(tables.check(rkey, pd, first.address() + PAGE, 2 * PAGE, Access.REMOTE_READ, true))
                .as("across two mapped segments: one access, one segment").isEqualTo(AccessError.NOT_MAPPED);
        assertThat(tables.check(rkey, pd, 0, 8, Access.REMOTE_READ, true)).isEqualTo(AccessError.NOT_MAPPED);
        assertThat(tables.check(rkey, pd, -8, 8, Access.REMOTE_READ, true)).isEqualTo(AccessError.NOT_MAPPED);
        assertThat(tables.check(rkey, pd, first.address(), Long.MAX_VALUE, Access.REMOTE_READ, true))
                .isEqualTo(AccessError.NOT_MAPPED);
        assertThat(tables.check(rkey, pd, first.address(), 8, Access.FLUSH_GLOBAL, true))
                .as("rights first, as for any MR").isEqualTo(AccessError.NO_PERMISSION);
        assertThat(tables.check(rkey, new ProtectionDomain(2), first.address(), 8, 0, true)).isEqualTo(AccessError.WRONG_PD);
        assertThat(AccessError.NOT_MAPPED.code()).as("vendor_err, after the older reasons").isEqualTo(10);
        assertThat(faults()).isZero();
    }

    @Test
    void aMappedSegmentFreedIsRefusedAtAccessAndAnotherMayBeMappedOverIt() throws RnicException {
        MemorySegment backing = arena.allocate(2 * PAGE, PAGE);
        Arena freed = Arena.ofConfined();
        // The same addresses under an Arena of their own: closing it frees the segment as far as the NIC can tell.
        MemorySegment segment = backing.reinterpret(freed, null);
        tables.mapSegment(segment);
        MptEntry mr = tables.registerImplicitMr(pd, IMPLICIT_RW);
        tables.address(mr, segment.address());
        assertThat(faults()).isEqualTo(1);
        freed.close();

        assertThat(tables.check(mr.key(), pd, segment.address(), 8, 0, false)).isEqualTo(AccessError.MEMORY_FREED);
        assertThat(tables.check(mr.rkey(), pd, segment.address(), 8, Access.REMOTE_WRITE, true))
                .isEqualTo(AccessError.MEMORY_FREED);
        assertThat(tables.recheck(mr, mr.key(), segment.address(), 8)).isEqualTo(AccessError.MEMORY_FREED);
        assertThatThrownBy(() -> tables.prefetch(mr.key(), segment.address(), PAGE, false, true))
                .isInstanceOfSatisfying(RnicException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EFAULT))
                .hasMessageContaining("freed");

        tables.mapSegment(backing);
        assertThat(counters.get(Counter.ODP_INVALIDATIONS)).as("the freed mapping's pages went").isEqualTo(1);
        assertThat(tables.check(mr.key(), pd, backing.address(), 2 * PAGE, 0, false)).isEqualTo(AccessError.NONE);
        tables.address(mr, backing.address());
        assertThat(faults()).as("its page faults again").isEqualTo(2);
    }

    @Test
    void unmappingInvalidatesTheImplicitMrsPagesThere() throws RnicException {
        MemorySegment memory = mapped(3);
        MemorySegment other = mapped(1);
        MptEntry mr = tables.registerImplicitMr(pd, IMPLICIT_RW);
        MptEntry second = tables.registerImplicitMr(pd, Access.ON_DEMAND);
        for (int page = 0; page < 3; page++) {
            tables.address(mr, memory.address() + page * PAGE);
        }
        tables.address(mr, other.address());
        tables.address(second, memory.address());
        assertThat(faults()).isEqualTo(5);

        tables.unmapSegment(memory);

        assertThat(counters.get(Counter.ODP_INVALIDATIONS)).as("one per implicit MR").isEqualTo(2);
        assertThat(tables.check(mr.key(), pd, memory.address(), 1, 0, false)).isEqualTo(AccessError.NOT_MAPPED);
        assertThat(tables.recheck(mr, mr.key(), memory.address(), 1)).isEqualTo(AccessError.NOT_MAPPED);
        assertThat(tables.presentPages(mr.key(), other.address(), PAGE)).as("other segments keep theirs").isEqualTo(1);
        assertThatThrownBy(() -> tables.unmapSegment(memory)).isInstanceOfSatisfying(RnicException.class,
                e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL)).hasMessageContaining("no segment is mapped at");

        tables.mapSegment(memory);
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isZero();
        tables.address(mr, memory.address() + PAGE);
        assertThat(faults()).as("mapped again, its pages fault again").isEqualTo(6);
    }

    @Test
    void prefetchAndInvalidateWorkOnMappedRangesOnly() throws RnicException {
        MemorySegment memory = mapped(8);
        MptEntry mr = tables.registerImplicitMr(pd, IMPLICIT_RW);
        long start = memory.address();

        assertThat(tables.prefetch(mr.key(), start, 4 * PAGE, true, true)).isEqualTo(4);
        assertThat(tables.prefetch(mr.key(), start + 4 * PAGE, 4 * PAGE, false, false)).as("asked for").isEqualTo(4);
        assertThat(tables.presentPages(mr.key(), start, memory.byteSize())).isEqualTo(4);
        timers.fire();
        assertThat(tables.presentPages(mr.key(), start, memory.byteSize())).isEqualTo(8);
        assertThat(counters.get(Counter.ODP_PREFETCHED_PAGES)).isEqualTo(8);
        for (int page = 0; page < 8; page++) {
            tables.address(mr, start + page * PAGE);
        }
        assertThat(faults()).isZero();

        assertThat(tables.invalidatePages(mr.key(), start + PAGE + 1, PAGE)).as("pages 1 and 2").isEqualTo(2);
        assertThat(tables.presentPages(mr.key(), start, memory.byteSize())).isEqualTo(6);

        assertRefused(() -> tables.prefetch(mr.key(), start + 7 * PAGE, 2 * PAGE, false, true), "is not inside one segment");
        assertRefused(() -> tables.prefetch(mr.key(), start - PAGE, PAGE, false, true), "is not inside one segment");
        assertRefused(() -> tables.prefetch(mr.key(), start, 0, false, true), "is not inside one segment");
        assertRefused(() -> tables.invalidatePages(mr.key(), start + memory.byteSize(), 1), "is not inside one segment");
        MptEntry readOnly = tables.registerImplicitMr(pd, Access.ON_DEMAND);
        assertRefused(() -> tables.prefetch(readOnly.key(), start, PAGE, true, true), "without LOCAL_WRITE");
        assertThat(counters.get(Counter.ODP_INVALIDATIONS)).isEqualTo(1);
    }

    @Test
    void aPeersFaultUnderTheRnrNakPolicyAsksForThePagesOnce() throws RnicException {
        MemorySegment memory = mapped(4);
        MptEntry mr = tables.registerImplicitMr(pd, IMPLICIT_RW);
        OnDemandPaging odp = tables.onDemandPaging();
        long iova = memory.address() + PAGE;

        assertThat(odp.present(mr, iova, 2 * PAGE, tables.mtt())).isFalse();
        odp.bringInLater(mr, iova, 2 * PAGE, tables.mtt());
        odp.bringInLater(mr, iova, 2 * PAGE, tables.mtt()); // the retry came before the pages
        assertThat(faults()).isEqualTo(2);
        assertThat(odp.present(mr, iova, 2 * PAGE, tables.mtt())).isFalse();

        timers.fire();
        assertThat(odp.present(mr, iova, 2 * PAGE, tables.mtt())).isTrue();
        assertThat(tables.address(mr, iova + PAGE)).isEqualTo(iova + PAGE);
        assertThat(faults()).isEqualTo(2);
        assertThat(counters.get(Counter.ODP_FAULT_NANOS)).isEqualTo(2 * COST);
    }

    @Test
    void pagesOnTheirWayToAnUnmappedSegmentOrADeregisteredMrDoNotArrive() throws RnicException {
        MemorySegment memory = mapped(2);
        MptEntry mr = tables.registerImplicitMr(pd, IMPLICIT_RW);
        tables.onDemandPaging().bringInLater(mr, memory.address(), 2 * PAGE, tables.mtt());
        tables.unmapSegment(memory);
        tables.mapSegment(memory);
        timers.fire();
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isZero();

        tables.onDemandPaging().bringInLater(mr, memory.address(), 2 * PAGE, tables.mtt());
        tables.deregisterMr(mr.key());
        MptEntry next = tables.registerImplicitMr(pd, IMPLICIT_RW);
        timers.fire();
        assertThat(tables.presentPages(next.key(), memory.address(), memory.byteSize())).isZero();
    }

    @Test
    void whatAnImplicitMrCannotDoIsRefused() throws RnicException {
        MemorySegment memory = mapped(1);
        MptEntry mr = tables.registerImplicitMr(pd, IMPLICIT_RW | Access.MW_BIND);
        MptEntry mw = tables.allocateMw(pd, 1);

        assertRefused(() -> tables.bindMw(mw.key(), pd, mr.key(), memory.address(), 8, Access.REMOTE_READ, -1),
                "is implicit");
        assertThatThrownBy(() -> tables.reregisterMr(mr.key(), null, null, null, Access.ON_DEMAND))
                .isInstanceOfSatisfying(RnicException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EOPNOTSUPP))
                .hasMessageContaining("cannot be re-registered");
        assertThat(tables.invalidate(mr.key(), pd)).isEqualTo(AccessError.NONE);
        assertThat(tables.fastRegister(mr.key(), pd, 0x44, memory.address(), PAGE, IMPLICIT_RW))
                .isEqualTo(AccessError.NO_PERMISSION);
        assertRefused(() -> tables.registerImplicitMr(pd, Access.LOCAL_WRITE), "must include ON_DEMAND");
        assertRefused(() -> tables.registerImplicitMr(pd, Access.ON_DEMAND | Access.ZERO_BASED), "ZERO_BASED");
        assertRefused(() -> tables.registerImplicitMr(pd, Access.ON_DEMAND | 1 << 20), "unsupported access bits");
        assertThat(tables.mrCount()).isEqualTo(1);
    }

    @Test
    void mappingRefusesWhatTheNicCouldNotReach() throws RnicException {
        MemorySegment memory = mapped(4);
        assertRefused(() -> tables.mapSegment(memory), "is mapped already");
        assertRefused(() -> tables.mapSegment(memory.asSlice(PAGE, PAGE)), "overlaps the mapped segment");
        assertRefused(() -> tables.mapSegment(MemorySegment.ofArray(new byte[16])), "must be native");
        assertRefused(() -> tables.mapSegment(memory.asSlice(0, 0)), "empty");
        Arena closed = Arena.ofConfined();
        MemorySegment gone = closed.allocate(PAGE);
        closed.close();
        assertRefused(() -> tables.mapSegment(gone), "freed");
        assertRefused(() -> tables.unmapSegment(memory.asSlice(0, PAGE)), "whole");
        assertThat(tables.addressSpace().count()).isEqualTo(1);

        MemoryTables nicThread = new MemoryTables(DeviceAttributes.rxeDefaults(), 1 << 10, PageFaultHook.PINNED, true, 1,
                null);
        assertRefused(() -> nicThread.mapSegment(arena.allocate(PAGE)), "confined to the thread");
    }

    @Test
    void aDeviceWithoutImplicitOdpRefusesTheRegistrationAndNamesTheSetting() throws RnicException {
        for (OdpSettings without : new OdpSettings[] {OdpSettings.RXE, OdpSettings.DISABLED}) {
            MemoryTables device = tables(without);
            assertThatThrownBy(() -> device.registerImplicitMr(pd, IMPLICIT_RW))
                    .isInstanceOfSatisfying(RnicException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EOPNOTSUPP))
                    .hasMessageContaining("without implicit on-demand paging")
                    .hasMessageContaining("jrxe0.odp_implicit = on");
            assertThat(device.mrCount()).isZero();
        }
        assertThatThrownBy(() -> OdpSettings.DISABLED.withImplicit(true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs on-demand paging enabled");
    }

    private static void assertRefused(ThrowingCall call, String why) {
        assertThatThrownBy(call::run)
                .isInstanceOfSatisfying(RnicException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                .hasMessageContaining(why);
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws RnicException;
    }
}
