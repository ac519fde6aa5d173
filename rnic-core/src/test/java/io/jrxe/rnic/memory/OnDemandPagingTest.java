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
import java.lang.foreign.ValueLayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * On-demand paging in the translation tables alone: what registration leaves in the MTT, which access faults and
 * how often, invalidation, prefetch (now and later), the pages a peer's fault asks for, and the refusals.
 */
class OnDemandPagingTest {
    private static final long PAGE = MptEntry.PAGE_SIZE;
    private static final long COST = 7_000;
    private static final int ODP_RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.ON_DEMAND;

    private final Arena arena = Arena.ofConfined();
    private final Counters counters = new Counters();
    private final HeldTimers timers = new HeldTimers();
    private final MemoryTables tables = tables(new OdpSettings(true, RemoteFaultPolicy.RNR_NAK, COST));
    private final ProtectionDomain pd = new ProtectionDomain(1);

    private MemoryTables tables(OdpSettings settings) {
        OnDemandPaging odp = settings.enabled() ? new OnDemandPaging(settings, counters, PageFaultHook.PINNED, timers) : null;
        return new MemoryTables(DeviceAttributes.rxeDefaults(), 1 << 16, PageFaultHook.PINNED, false, 1, odp);
    }

    @AfterEach
    void close() {
        arena.close();
    }

    private MptEntry register(MemorySegment memory, int access) throws RnicException {
        return tables.registerMr(pd, memory, memory.address(), access);
    }

    private long faults() {
        return counters.get(Counter.ODP_PAGE_FAULTS);
    }

    @Test
    void registrationPinsNothingAndLeavesEveryEntryEmpty() throws RnicException {
        // A pinned MR first and deregistered, so that the ODP MR's run reuses entries that held pages.
        MemorySegment before = arena.allocate(16 * PAGE, PAGE);
        MptEntry pinned = register(before, Access.LOCAL_WRITE);
        assertThat(tables.presentPages(pinned.key(), before.address(), before.byteSize())).isEqualTo(16);
        tables.deregisterMr(pinned.key());

        MemorySegment memory = arena.allocate(16 * PAGE, PAGE);
        MptEntry mr = register(memory, ODP_RW);

        assertThat(mr.onDemand()).isTrue();
        assertThat(mr.mttOffset()).isEqualTo(0);
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isZero();
        for (long i = 0; i < mr.pageCount(); i++) {
            assertThat(tables.mtt().get(mr.mttOffset() + i)).isEqualTo(OnDemandPaging.NOT_PRESENT);
        }
        assertThat(faults()).isZero();
    }

    @Test
    void theFirstAccessToAPageFaultsItInOnceAndTranslatesToTheRealAddress() throws RnicException {
        MemorySegment memory = arena.allocate(4 * PAGE + 100, PAGE).asSlice(100);
        MptEntry mr = register(memory, ODP_RW);

        for (long offset : new long[] {0, 5, PAGE - 101, PAGE - 100, 3 * PAGE, 4 * PAGE - 1}) {
            long address = tables.address(mr, memory.address() + offset);
            assertThat(address).isEqualTo(memory.address() + offset);
        }
        // The MR spans five pages from byte 100 of the first: offsets 0..PAGE-101 are in page 0, PAGE-100 starts
        // page 1, 3*PAGE is in page 3 and 4*PAGE-1 in page 4.
        assertThat(faults()).isEqualTo(4);
        assertThat(counters.get(Counter.ODP_FAULT_NANOS)).isEqualTo(4 * COST);
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isEqualTo(4);

        memory.set(ValueLayout.JAVA_BYTE, 2 * PAGE, (byte) 42);
        long address = tables.address(mr, memory.address() + 2 * PAGE);
        assertThat(MemorySegment.ofAddress(address).reinterpret(1).get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 42);
        assertThat(faults()).isEqualTo(5);
    }

    @Test
    void inspectingATranslationShowsAPageNotPresentWithoutFaultingIt() throws RnicException {
        MemorySegment memory = arena.allocate(2 * PAGE, PAGE);
        MptEntry mr = register(memory, ODP_RW);

        Translation before = tables.inspect(mr.key(), memory.address() + 5);
        assertThat(before.present()).isFalse();
        assertThat(before.mttIndex()).isEqualTo(mr.mttOffset());
        assertThat(before.toString()).contains("MTT[" + mr.mttOffset() + "] = not present");
        assertThat(faults()).isZero();

        tables.address(mr, memory.address());
        Translation after = tables.inspect(mr.key(), memory.address() + 5);
        assertThat(after.present()).isTrue();
        assertThat(after.address()).isEqualTo(memory.address() + 5);
    }

    @Test
    void reRegistrationSwitchesBetweenPinnedAndOnDemandPages() throws RnicException {
        MemorySegment memory = arena.allocate(3 * PAGE, PAGE);
        MptEntry mr = register(memory, Access.LOCAL_WRITE);
        tables.reregisterMr(mr.key(), null, null, null, Access.LOCAL_WRITE | Access.ON_DEMAND);
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isZero();

        tables.reregisterMr(mr.key(), null, null, null, Access.LOCAL_WRITE);
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isEqualTo(3);
        assertThat(faults()).isZero();
    }

    @Test
    void anInvalidatedPageFaultsAgainOnItsNextAccess() throws RnicException {
        MemorySegment memory = arena.allocate(4 * PAGE, PAGE);
        MptEntry mr = register(memory, ODP_RW);
        for (int page = 0; page < 4; page++) {
            tables.address(mr, memory.address() + page * PAGE);
        }
        assertThat(faults()).isEqualTo(4);

        long dropped = tables.invalidatePages(mr.key(), memory.address() + PAGE + 10, PAGE);
        assertThat(dropped).as("the range's bytes lie in pages 1 and 2").isEqualTo(2);
        assertThat(counters.get(Counter.ODP_INVALIDATIONS)).isEqualTo(1);
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isEqualTo(2);

        tables.address(mr, memory.address());
        assertThat(faults()).as("page 0 stayed").isEqualTo(4);
        tables.address(mr, memory.address() + 2 * PAGE);
        assertThat(faults()).isEqualTo(5);
    }

    @Test
    void aPrefetchNowBringsPagesInSoThatNoAccessFaults() throws RnicException {
        MemorySegment memory = arena.allocate(8 * PAGE, PAGE);
        MptEntry mr = register(memory, ODP_RW);
        tables.address(mr, memory.address());

        long brought = tables.prefetch(mr.key(), memory.address(), memory.byteSize(), true, true);

        assertThat(brought).as("page 0 was present already").isEqualTo(7);
        assertThat(counters.get(Counter.ODP_PREFETCHED_PAGES)).isEqualTo(7);
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isEqualTo(8);
        for (int page = 0; page < 8; page++) {
            tables.address(mr, memory.address() + page * PAGE);
        }
        assertThat(faults()).isEqualTo(1);
    }

    @Test
    void aPrefetchLaterBringsPagesInAfterTheFaultCost() throws RnicException {
        MemorySegment memory = arena.allocate(3 * PAGE, PAGE);
        MptEntry mr = register(memory, Access.ON_DEMAND);

        assertThat(tables.prefetch(mr.key(), memory.address(), memory.byteSize(), false, false)).isEqualTo(3);
        assertThat(tables.prefetch(mr.key(), memory.address(), memory.byteSize(), false, false))
                .as("all on their way already").isZero();
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isZero();
        assertThat(timers.delays).containsExactly(COST);
        assertThat(counters.get(Counter.ODP_PREFETCHED_PAGES)).isEqualTo(3);

        timers.fire();
        assertThat(tables.presentPages(mr.key(), memory.address(), memory.byteSize())).isEqualTo(3);
        tables.address(mr, memory.address() + PAGE);
        assertThat(faults()).isZero();
    }

    @Test
    void pagesAPeerFaultedOnAreAskedForOnceAndArriveAfterTheFaultCost() throws RnicException {
        MemorySegment memory = arena.allocate(4 * PAGE, PAGE);
        MptEntry mr = register(memory, ODP_RW);
        OnDemandPaging odp = tables.onDemandPaging();
        long iova = memory.address() + PAGE;

        assertThat(odp.present(mr, iova, 2 * PAGE, tables.mtt())).isFalse();
        odp.bringInLater(mr, iova, 2 * PAGE, tables.mtt());
        odp.bringInLater(mr, iova, 2 * PAGE, tables.mtt()); // the retry came before the pages
        assertThat(faults()).isEqualTo(2);
        assertThat(timers.delays).containsExactly(COST);
        assertThat(odp.present(mr, iova, 2 * PAGE, tables.mtt())).isFalse();

        timers.fire();
        assertThat(odp.present(mr, iova, 2 * PAGE, tables.mtt())).isTrue();
        assertThat(tables.address(mr, iova + PAGE)).isEqualTo(iova + PAGE);
        assertThat(faults()).isEqualTo(2);
    }

    @Test
    void pagesAskedForByAnMrDeregisteredMeanwhileDoNotLandInTheNextOnesEntries() throws RnicException {
        MemorySegment first = arena.allocate(2 * PAGE, PAGE);
        MptEntry mr = register(first, ODP_RW);
        tables.onDemandPaging().bringInLater(mr, first.address(), 2 * PAGE, tables.mtt());
        tables.deregisterMr(mr.key());
        MemorySegment second = arena.allocate(2 * PAGE, PAGE);
        MptEntry next = register(second, ODP_RW);
        assertThat(next.mttOffset()).isEqualTo(mr.mttOffset());

        timers.fire();
        assertThat(tables.presentPages(next.key(), second.address(), second.byteSize())).isZero();
        assertThat(tables.address(next, second.address())).isEqualTo(second.address());
    }

    @Test
    void aDeviceWithoutOdpRefusesOnDemandRegistration() throws RnicException {
        MemoryTables without = tables(OdpSettings.DISABLED);
        MemorySegment memory = arena.allocate(PAGE, PAGE);

        assertThatThrownBy(() -> without.registerMr(pd, memory, memory.address(), ODP_RW))
                .isInstanceOfSatisfying(RnicException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EOPNOTSUPP))
                .hasMessageContaining("configured without on-demand paging");
        assertThat(without.mrCount()).isZero();
    }

    @Test
    void invalidateAndPrefetchRefuseAPinnedMrARangeOutsideAndAStaleKey() throws RnicException {
        MemorySegment memory = arena.allocate(2 * PAGE, PAGE);
        MptEntry pinned = register(arena.allocate(PAGE, PAGE), Access.LOCAL_WRITE);
        MptEntry odp = register(memory, Access.ON_DEMAND);

        assertRefused(() -> tables.invalidatePages(pinned.key(), pinned.iova(), 1), "was not registered ON_DEMAND");
        assertRefused(() -> tables.prefetch(pinned.key(), pinned.iova(), 1, false, true), "was not registered ON_DEMAND");
        assertRefused(() -> tables.invalidatePages(odp.key(), memory.address() + PAGE, 2 * PAGE), "is outside MR");
        assertRefused(() -> tables.prefetch(odp.key(), memory.address() - 1, 2, false, true), "is outside MR");
        assertRefused(() -> tables.prefetch(odp.key(), memory.address(), 0, false, true), "is outside MR");
        assertRefused(() -> tables.prefetch(odp.key(), memory.address(), 1, true, true), "without LOCAL_WRITE");
        int key = odp.key();
        tables.deregisterMr(key);
        assertRefused(() -> tables.invalidatePages(key, memory.address(), 1), "no MR or MW there now has the key");
        assertThat(counters.get(Counter.ODP_INVALIDATIONS) + counters.get(Counter.ODP_PREFETCHED_PAGES)).isZero();
    }

    @Test
    void aFastRegistrationCannotSwitchBetweenPinnedAndOnDemand() throws RnicException {
        MemorySegment memory = arena.allocate(PAGE, PAGE);
        MptEntry mr = register(memory, Access.LOCAL_WRITE | Access.ON_DEMAND);
        assertThat(tables.invalidate(mr.key(), pd)).isEqualTo(AccessError.NONE);

        assertThat(tables.fastRegister(mr.key(), pd, 0x33, memory.address(), PAGE, Access.LOCAL_WRITE))
                .isEqualTo(AccessError.NO_PERMISSION);
        assertThat(tables.fastRegister(mr.key(), pd, 0x33, memory.address(), PAGE, Access.LOCAL_WRITE | Access.ON_DEMAND))
                .isEqualTo(AccessError.NONE);
    }

    @Test
    void aPrefetchOfFreedMemoryIsRefusedAndItsAccessCheckFails() throws RnicException {
        Arena other = Arena.ofConfined();
        MemorySegment memory = other.allocate(PAGE, PAGE);
        MptEntry mr = register(memory, ODP_RW);
        other.close();

        assertThatThrownBy(() -> tables.prefetch(mr.key(), mr.iova(), 1, false, true))
                .isInstanceOfSatisfying(RnicException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EFAULT))
                .hasMessageContaining("freed");
        assertThat(tables.check(mr.key(), pd, mr.iova(), 1, 0, false)).isEqualTo(AccessError.MEMORY_FREED);
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
