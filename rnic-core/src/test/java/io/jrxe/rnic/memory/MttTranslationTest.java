package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Access;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The translation iova -> MTT entry -> page address + offset that every transfer takes, checked
 * through {@link MemoryTables#inspect} against the real address of the native memory the MR
 * covers: at both sides of every page boundary, for buffers that start anywhere in a page,
 * registered at their own address (ibv_reg_mr), at another iova (ibv_reg_mr_iova) or ZERO_BASED.
 * Each translated address is then written through and read back through the buffer, so the
 * MTT is shown to hold the pages themselves.
 */
class MttTranslationTest {
    private static final long OTHER_IOVA = 0x7000_0000_0123L;
    private final MemoryFixture f = new MemoryFixture();

    @AfterEach
    void close() {
        f.close();
    }

    enum IovaMode { OWN_ADDRESS, OTHER_IOVA, ZERO_BASED }

    @ParameterizedTest(name = "{0} bytes at page offset {1}, {2}")
    @CsvSource({
        "12288, 100, OWN_ADDRESS", "12288, 100, OTHER_IOVA", "12288, 100, ZERO_BASED",
        "12288, 0, OWN_ADDRESS", "12288, 0, ZERO_BASED",
        "4096, 4095, OWN_ADDRESS", "1, 4095, OTHER_IOVA", "5000, 1, ZERO_BASED",
        "40960, 2048, OTHER_IOVA", "100, 3000, OWN_ADDRESS",
    })
    void everyPageBoundaryTranslatesToTheRealAddress(long size, long pageOffset, IovaMode mode) throws RnicException {
        // Something registered first, so that this MR's MTT run does not start at entry 0.
        f.register(f.pages(3), Access.LOCAL_WRITE);
        MemorySegment buffer = f.unaligned(size, pageOffset);
        long iova = switch (mode) {
            case OWN_ADDRESS -> buffer.address();
            case OTHER_IOVA -> OTHER_IOVA;
            case ZERO_BASED -> 0;
        };
        int access = Access.LOCAL_WRITE | (mode == IovaMode.ZERO_BASED ? Access.ZERO_BASED : 0);
        MptEntry mr = f.tables.registerMr(f.pd, buffer, mode == IovaMode.ZERO_BASED ? 0x5555 : iova, access);

        long firstPage = buffer.address() >>> MptEntry.PAGE_SHIFT;
        long lastPage = (buffer.address() + size - 1) >>> MptEntry.PAGE_SHIFT;
        assertThat(mr.iova()).isEqualTo(iova);
        assertThat(mr.length()).isEqualTo(size);
        assertThat(mr.pageCount()).isEqualTo(lastPage - firstPage + 1);
        assertThat(mr.firstPageOffset()).isEqualTo(pageOffset);
        assertThat(mr.mttOffset()).isEqualTo(3);

        TreeSet<Long> offsets = new TreeSet<>();
        offsets.add(0L);
        offsets.add(size - 1);
        for (long page = firstPage + 1; page <= lastPage; page++) {
            long boundary = (page << MptEntry.PAGE_SHIFT) - buffer.address();
            offsets.add(boundary - 1);
            offsets.add(boundary);
            offsets.add(Math.min(boundary + 1, size - 1));
        }
        byte mark = 1;
        for (long offset : offsets) {
            checkTranslation(mr, buffer, iova, offset, mark++);
        }
    }

    @Test
    void seededRandomOffsetsTranslateToTheRealAddress() throws RnicException {
        long seed = 0xC0FFEE;
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            long size = 1 + random.nextInt(16 * (int) MemoryFixture.PAGE);
            long pageOffset = random.nextInt((int) MemoryFixture.PAGE);
            MemorySegment buffer = f.unaligned(size, pageOffset);
            long iova = random.nextLong() >>> 2;
            MptEntry mr = f.tables.registerMr(f.pd, buffer, iova, Access.LOCAL_WRITE);
            for (int i = 0; i < 50; i++) {
                long offset = (long) (random.nextDouble() * size);
                Translation t = f.tables.inspect(mr.key(), iova + offset);
                assertThat(t.address()).as("seed %d round %d offset %d", seed, round, offset)
                        .isEqualTo(buffer.address() + offset);
            }
            f.tables.deregisterMr(mr.key());
        }
    }

    @Test
    void anIovaOutsideTheMrDoesNotTranslate() throws RnicException {
        MemorySegment buffer = f.unaligned(3 * MemoryFixture.PAGE, 100);
        MptEntry mr = f.register(buffer, Access.LOCAL_WRITE);
        long end = buffer.address() + buffer.byteSize();
        assertThatThrownBy(() -> f.tables.inspect(mr.key(), buffer.address() - 1))
                .isInstanceOf(RnicException.class)
                .hasMessage(String.format("iova 0x%x is outside key 0x%08x (0x%x+%d)", buffer.address() - 1, mr.key(),
                        buffer.address(), buffer.byteSize()));
        assertThatThrownBy(() -> f.tables.inspect(mr.key(), end)).hasMessageContaining("is outside key");
        assertThat(f.tables.inspect(mr.key(), end - 1).address()).isEqualTo(end - 1);
    }

    @Test
    void theTranslationSaysWhatItUsed() throws RnicException {
        MemorySegment buffer = f.unaligned(2 * MemoryFixture.PAGE, 0x10);
        MptEntry mr = f.tables.registerMr(f.pd, buffer, 0x1000, Access.LOCAL_WRITE | Access.REMOTE_READ);
        Translation t = f.tables.inspect(mr.key(), 0x1000 + MemoryFixture.PAGE);
        assertThat(t.key()).isEqualTo(mr.key());
        assertThat(t.kind()).isEqualTo(KeyKind.MR);
        assertThat(t.pdHandle()).isEqualTo(f.pd.handle());
        assertThat(t.access()).isEqualTo("LOCAL_WRITE|REMOTE_READ");
        assertThat(t.entryIova()).isEqualTo(0x1000);
        assertThat(t.entryLength()).isEqualTo(2 * MemoryFixture.PAGE);
        assertThat(t.iova()).isEqualTo(0x2000);
        assertThat(t.mttIndex()).isEqualTo(mr.mttOffset() + 1);
        assertThat(t.pageAddress()).isEqualTo((buffer.address() & ~0xFFFL) + MemoryFixture.PAGE);
        assertThat(t.pageOffset()).isEqualTo(0x10);
        assertThat(t.toString()).contains(String.format("iova 0x2000 -> MTT[%d] = page 0x%x + 0x010",
                t.mttIndex(), t.pageAddress()));
    }

    private void checkTranslation(MptEntry mr, MemorySegment buffer, long iova, long offset, byte mark)
            throws RnicException {
        long address = buffer.address() + offset;
        Translation t = f.tables.inspect(mr.key(), iova + offset);
        String at = String.format("offset %d (address 0x%x)", offset, address);
        assertThat(t.iova()).as(at).isEqualTo(iova + offset);
        assertThat(t.address()).as(at).isEqualTo(address);
        assertThat(t.pageAddress()).as(at).isEqualTo(address & ~(MptEntry.PAGE_SIZE - 1));
        assertThat(t.pageOffset()).as(at).isEqualTo(address & (MptEntry.PAGE_SIZE - 1));
        long expectedEntry = mr.mttOffset() + ((address >>> MptEntry.PAGE_SHIFT) - (buffer.address() >>> MptEntry.PAGE_SHIFT));
        assertThat(t.mttIndex()).as(at).isEqualTo(expectedEntry);
        assertThat(f.tables.mtt().get(t.mttIndex())).as(at).isEqualTo(t.pageAddress());
        assertThat(f.tables.address(mr, iova + offset)).as(at).isEqualTo(address);
        // The address is the buffer's byte: a store through it shows in the buffer.
        MemorySegment.ofAddress(t.address()).reinterpret(1).set(ValueLayout.JAVA_BYTE, 0, mark);
        assertThat(buffer.get(ValueLayout.JAVA_BYTE, offset)).as(at).isEqualTo(mark);
    }
}
