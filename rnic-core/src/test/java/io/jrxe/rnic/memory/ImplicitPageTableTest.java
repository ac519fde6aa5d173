package io.jrxe.rnic.memory;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An implicit MR's page table against a plain map doing the same: pages set present or on their way, removed one at
 * a time or by range (walked page by page, or swept slot by slot when the range is wider than the table), across
 * growth and the cluster shifts of removal.
 */
class ImplicitPageTableTest {
    private static final long PRESENT = -2; // the model's mark; the table answers with the page's address

    @Test
    void agreesWithAMapThroughRandomSetsRemovalsAndRanges() {
        SplittableRandom random = new SplittableRandom(42);
        ImplicitPageTable table = new ImplicitPageTable();
        Map<Long, Long> model = new HashMap<>();
        // Few distinct pages in a narrow band, so that clusters form, grow and are cut.
        long base = 0x7f00_0000_0L;
        for (int step = 0; step < 200_000; step++) {
            long page = base + random.nextInt(3_000);
            int op = random.nextInt(10);
            if (op < 4) {
                table.set(page, page << MptEntry.PAGE_SHIFT);
                model.put(page, PRESENT);
            } else if (op < 6) {
                table.set(page, OnDemandPaging.BRINGING_IN);
                model.put(page, OnDemandPaging.BRINGING_IN);
            } else if (op < 9) {
                table.set(page, OnDemandPaging.NOT_PRESENT);
                model.remove(page);
            } else {
                long last = page + (random.nextInt(4) == 0 ? 5_000 : random.nextInt(20));
                long present = model.entrySet().stream()
                        .filter(e -> e.getKey() >= page && e.getKey() <= last && e.getValue() == PRESENT).count();
                model.keySet().removeIf(p -> p >= page && p <= last);
                assertThat(table.removeRange(page, last)).as("present pages removed at step %d", step).isEqualTo(present);
            }
            if (step % 1000 == 0) {
                assertSame(table, model, base);
            }
        }
        assertSame(table, model, base);
    }

    @Test
    void anEmptyTableHasNoPagesAndTheFirstPageNumbersWork() {
        ImplicitPageTable table = new ImplicitPageTable();
        assertThat(table.get(0)).isEqualTo(OnDemandPaging.NOT_PRESENT);
        table.set(0, 0);
        assertThat(table.size()).as("NOT_PRESENT stores nothing").isZero();
        table.set(1, 1L << MptEntry.PAGE_SHIFT);
        table.set((1L << 52) - 1, OnDemandPaging.BRINGING_IN);
        assertThat(table.get(1)).isEqualTo(1L << MptEntry.PAGE_SHIFT);
        assertThat(table.get((1L << 52) - 1)).isEqualTo(OnDemandPaging.BRINGING_IN);
        assertThat(table.removeRange(0, (1L << 52) - 1)).as("the sweep").isEqualTo(1);
        assertThat(table.size()).isZero();
    }

    private static void assertSame(ImplicitPageTable table, Map<Long, Long> model, long base) {
        assertThat(table.size()).isEqualTo(model.size());
        for (long page = base - 10; page < base + 8_100; page++) {
            Long state = model.get(page);
            long expected = state == null ? OnDemandPaging.NOT_PRESENT
                    : state == PRESENT ? page << MptEntry.PAGE_SHIFT : OnDemandPaging.BRINGING_IN;
            assertThat(table.get(page)).as("page 0x%x", page).isEqualTo(expected);
        }
    }
}
