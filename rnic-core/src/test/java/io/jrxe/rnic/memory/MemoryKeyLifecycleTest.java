package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Errno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A key is an MPT index and an 8-bit variant. Re-registration keeps the index and moves the
 * variant on, deregistration frees the index (its old keys are stale, not unknown), and a key
 * that never existed is unknown.
 */
class MemoryKeyLifecycleTest {
    private final MemoryFixture f = new MemoryFixture();

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aKeyIsIndexAndVariant() {
        int key = MemoryKey.of(0x123456, 0x1AB);
        assertThat(key).isEqualTo(0x123456AB);
        assertThat(MemoryKey.index(key)).isEqualTo(0x123456);
        assertThat(MemoryKey.variant(key)).isEqualTo(0xAB);
        assertThat(MemoryKey.index(0xFFFFFFFF)).isEqualTo(MemoryKey.MAX_INDEX);
        assertThat(MemoryKey.format(key)).isEqualTo("0x123456ab (index 1193046, variant 0xab)");
    }

    @Test
    void reregistrationKeepsTheIndexAndChangesTheVariant() throws RnicException {
        MemorySegment first = f.pages(1);
        MptEntry mr = f.register(first, Access.LOCAL_WRITE);
        int old = mr.key();
        MemorySegment second = f.unaligned(2 * MemoryFixture.PAGE, 7);

        MptEntry again = f.tables.reregisterMr(old, f.otherPd, second, null, Access.LOCAL_WRITE | Access.REMOTE_READ);

        assertThat(again).isSameAs(mr);
        assertThat(again.index()).isEqualTo(MemoryKey.index(old));
        assertThat(again.variant()).isNotEqualTo(MemoryKey.variant(old));
        assertThat(f.tables.lookup(old)).isNull();
        assertThat(f.tables.lookup(again.key())).isSameAs(mr);
        // The new translation, PD and rights, and the PDs' holders follow.
        assertThat(again.iova()).isEqualTo(second.address());
        assertThat(again.pageCount()).as("8 KiB from 7 bytes into a page spans 3 pages").isEqualTo(3);
        assertThat(f.tables.inspect(again.key(), second.address() + 5000).address()).isEqualTo(second.address() + 5000);
        assertThat(f.tables.check(again.key(), f.pd, again.iova(), 8, 0, false)).isEqualTo(AccessError.WRONG_PD);
        assertThat(f.tables.check(again.rkey(), f.otherPd, again.iova(), 8, Access.REMOTE_READ, true))
                .isEqualTo(AccessError.NONE);
        assertThat(f.pd.holders().isEmpty()).isTrue();
        assertThat(f.otherPd.holders().count()).isEqualTo(1);
        assertThat(f.tables.mtt().usedEntries()).as("the old run was given back").isEqualTo(3);
        assertThat(f.tables.mrCount()).isEqualTo(1);
    }

    @Test
    void reregistrationWithAnIovaOnly() throws RnicException {
        MptEntry mr = f.register(f.pages(2), Access.LOCAL_WRITE);
        MemorySegment memory = mr.segment();
        MptEntry again = f.tables.reregisterMr(mr.key(), null, null, 0x4000L, null);
        assertThat(again.iova()).isEqualTo(0x4000);
        assertThat(f.tables.inspect(again.key(), 0x4000 + 10).address()).isEqualTo(memory.address() + 10);
    }

    @Test
    void deregistrationFreesTheIndexAndLeavesTheKeyStale() throws RnicException {
        MptEntry mr = f.register(f.pages(1), Access.LOCAL_WRITE);
        int key = mr.key();
        f.tables.deregisterMr(key);

        assertThat(f.tables.lookup(key)).isNull();
        assertThat(f.tables.mrCount()).isZero();
        assertThat(f.tables.mtt().usedEntries()).isZero();
        assertThat(f.pd.holders().isEmpty()).isTrue();
        assertThat(mr.state()).isEqualTo(MptEntry.State.FREE);
        assertThat(mr.toString()).isEqualTo("free MPT entry " + MemoryKey.index(key));

        RnicException again = catchThrowableOfType(RnicException.class, () -> f.tables.deregisterMr(key));
        assertThat(again.errno()).isEqualTo(Errno.EINVAL);
        assertThat(again.getMessage()).isEqualTo(String.format("deregister MR 0x%08x: %s", key,
                AccessError.WRONG_VARIANT.description()));
    }

    @Test
    void aKeyThatNeverExistedIsUnknown() {
        int never = MemoryKey.of(4242, 1);
        RnicException e = catchThrowableOfType(RnicException.class, () -> f.tables.deregisterMr(never));
        assertThat(e.getMessage()).isEqualTo(String.format("deregister MR 0x%08x: %s", never,
                AccessError.KEY_NOT_FOUND.description()));
        RnicException inspect = catchThrowableOfType(RnicException.class, () -> f.tables.inspect(never, 0));
        assertThat(inspect.getMessage()).contains(AccessError.KEY_NOT_FOUND.description());
    }

    @Test
    void keysOfLiveEntriesAreDistinct() throws RnicException {
        Set<Integer> keys = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            MptEntry mr = f.register(f.pages(1), Access.LOCAL_WRITE);
            assertThat(keys.add(mr.key())).as("key %s", MemoryKey.format(mr.key())).isTrue();
            assertThat(mr.toString()).isEqualTo(String.format("MR key 0x%08x", mr.key()));
        }
    }
}
