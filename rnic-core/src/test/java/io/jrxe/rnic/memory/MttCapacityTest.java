package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The MTT's capacity: a registration needs one contiguous run of entries, one per page, and is
 * refused before any page is touched when the table cannot give it, saying how many it needs,
 * how many are free, or that the free entries are fragmented.
 */
class MttCapacityTest {
    /** 16 GiB at 4 GiB: no memory is behind it, so reading a page of it would crash the JVM. */
    private static final MemorySegment SIXTEEN_GIB_NOT_MAPPED = MemorySegment.ofAddress(0x1_0000_0000L).reinterpret(16L << 30);

    private MemoryFixture f;

    @AfterEach
    void close() {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void sixteenGibOfPagesDoNotFitTheDefaultMttAndNoPageIsTouched() throws RnicException {
        f = new MemoryFixture();
        assertThat(f.tables.mtt().capacity()).isEqualTo(2L * 1024 * 1024);
        RnicException e = catchThrowableOfType(RnicException.class,
                () -> f.tables.registerMr(f.pd, SIXTEEN_GIB_NOT_MAPPED, SIXTEEN_GIB_NOT_MAPPED.address(), Access.LOCAL_WRITE));
        assertThat(e.errno()).isEqualTo(Errno.ENOMEM);
        assertThat(e.getMessage()).isEqualTo("registering 16 GiB needs 4,194,304 MTT entries, but only 2,097,152 of "
                + "2,097,152 are free (16 MiB of translation memory)");
        assertThat(f.tables.mrCount()).isZero();
        assertThat(f.tables.mtt().freeEntries()).isEqualTo(2L * 1024 * 1024);
        assertThat(f.pd.holders().isEmpty()).isTrue();

        // With a little registered, the message counts what is left.
        f.register(f.pages(3), Access.LOCAL_WRITE);
        RnicException again = catchThrowableOfType(RnicException.class,
                () -> f.tables.registerMr(f.pd, SIXTEEN_GIB_NOT_MAPPED, 0, Access.LOCAL_WRITE));
        assertThat(again.getMessage()).contains("needs 4,194,304 MTT entries, but only 2,097,149 of 2,097,152 are free");
    }

    @Test
    void reregisteringOntoMemoryThatDoesNotFitKeepsTheOldTranslation() throws RnicException {
        f = new MemoryFixture();
        MemorySegment buffer = f.unaligned(2 * MemoryFixture.PAGE, 40);
        MptEntry mr = f.register(buffer, Access.LOCAL_WRITE);
        int key = mr.key();
        RnicException e = catchThrowableOfType(RnicException.class,
                () -> f.tables.reregisterMr(key, null, SIXTEEN_GIB_NOT_MAPPED, null, null));
        assertThat(e.errno()).isEqualTo(Errno.ENOMEM);
        assertThat(e.getMessage()).startsWith("re-registering 16 GiB needs 4,194,304 MTT entries");
        assertThat(mr.key()).isEqualTo(key);
        assertThat(f.tables.mtt().usedEntries()).isEqualTo(3);
        for (long off = 0; off < buffer.byteSize(); off += 1000) {
            assertThat(f.tables.inspect(key, buffer.address() + off).address()).isEqualTo(buffer.address() + off);
        }
    }

    @Test
    void aSmallMttFillsUpAndEmptiesAgain() throws RnicException {
        f = new MemoryFixture(DeviceAttributes.rxeDefaults(), 64);
        MptEntry all = f.register(f.pages(64), Access.LOCAL_WRITE);
        assertThat(f.tables.mtt().freeEntries()).isZero();
        RnicException e = catchThrowableOfType(RnicException.class, () -> f.register(f.pages(1), Access.LOCAL_WRITE));
        assertThat(e.errno()).isEqualTo(Errno.ENOMEM);
        assertThat(e.getMessage()).isEqualTo("registering 4 KiB needs 1 MTT entries, but only 0 of 64 are free "
                + "(512 bytes of translation memory)");
        assertThat(f.tables.mrCount()).isEqualTo(1);

        f.tables.deregisterMr(all.key());
        assertThat(f.tables.mtt().freeEntries()).isEqualTo(64);
        assertThat(f.tables.mtt().largestFreeRun()).isEqualTo(64);
        f.register(f.pages(64), Access.LOCAL_WRITE);
    }

    @Test
    void aFragmentedMttSaysItsLargestFreeRun() throws RnicException {
        f = new MemoryFixture(DeviceAttributes.builder().maxMr(3).build(), 64);
        MptEntry a = f.register(f.pages(20), Access.LOCAL_WRITE);
        f.register(f.pages(20), Access.LOCAL_WRITE);
        MptEntry c = f.register(f.pages(24), Access.LOCAL_WRITE);
        f.tables.deregisterMr(a.key());
        f.tables.deregisterMr(c.key());
        assertThat(f.tables.mtt().freeEntries()).isEqualTo(44);
        assertThat(f.tables.mtt().largestFreeRun()).isEqualTo(24);

        RnicException e = catchThrowableOfType(RnicException.class, () -> f.register(f.pages(30), Access.LOCAL_WRITE));
        assertThat(e.errno()).isEqualTo(Errno.ENOMEM);
        assertThat(e.getMessage()).isEqualTo("registering 120 KiB needs 30 contiguous MTT entries; 44 are free but "
                + "the largest free run is 24");
        assertThat(f.tables.mtt().freeEntries()).isEqualTo(44);
        // Runs that do fit still go in.
        f.register(f.pages(24), Access.LOCAL_WRITE);
        assertThat(f.tables.mtt().largestFreeRun()).isEqualTo(20);
    }

    @Test
    void freedRunsMergeWithTheirNeighbours() throws RnicException {
        f = new MemoryFixture(DeviceAttributes.rxeDefaults(), 64);
        MptEntry a = f.register(f.pages(10), Access.LOCAL_WRITE);
        MptEntry b = f.register(f.pages(10), Access.LOCAL_WRITE);
        MptEntry c = f.register(f.pages(10), Access.LOCAL_WRITE);
        f.register(f.pages(34), Access.LOCAL_WRITE);
        f.tables.deregisterMr(a.key());
        f.tables.deregisterMr(c.key());
        assertThat(f.tables.mtt().largestFreeRun()).isEqualTo(10);
        f.tables.deregisterMr(b.key());
        assertThat(f.tables.mtt().largestFreeRun()).isEqualTo(30);
        MptEntry big = f.register(f.pages(30), Access.LOCAL_WRITE);
        assertThat(big.mttOffset()).isZero();
    }
}
