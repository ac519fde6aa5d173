package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Access;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link MemoryTables#check}, the test every transfer passes: each way a key, a PD, a range or a
 * right can be wrong gives its own reason, and only a fully right access reaches the entry.
 */
class AccessCheckTest {
    private static final int ALL = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
            | Access.MW_BIND | Access.FLUSH_GLOBAL | Access.FLUSH_PERSISTENT;

    private final MemoryFixture f = new MemoryFixture();
    private MemorySegment buffer;
    private MptEntry mr;
    private long iova;
    private long length;

    @BeforeEach
    void register() throws RnicException {
        buffer = f.unaligned(3 * MemoryFixture.PAGE, 100);
        mr = f.register(buffer, ALL);
        iova = buffer.address();
        length = buffer.byteSize();
    }

    @AfterEach
    void close() {
        f.close();
    }

    private AccessError local(int key, long at, long len, int rights) {
        return f.tables.check(key, f.pd, at, len, rights, false);
    }

    private AccessError remote(int key, long at, long len, int rights) {
        return f.tables.check(key, f.pd, at, len, rights, true);
    }

    @Test
    void aRightAccessReachesTheEntry() {
        assertThat(local(mr.key(), iova, length, Access.LOCAL_WRITE)).isEqualTo(AccessError.NONE);
        assertThat(f.tables.lookup(mr.key())).isSameAs(mr);
        assertThat(remote(mr.rkey(), iova + 5, 10, Access.REMOTE_READ | Access.REMOTE_WRITE)).isEqualTo(AccessError.NONE);
        assertThat(f.tables.lookup(mr.rkey())).isSameAs(mr);
    }

    @Test
    void anotherPdIsRefused() {
        assertThat(f.tables.check(mr.key(), f.otherPd, iova, 8, 0, false)).isEqualTo(AccessError.WRONG_PD);
        assertThat(f.tables.check(f.tables.lookup(mr.rkey()), mr.rkey(), f.otherPd, iova, 8, Access.REMOTE_READ, true))
                .as("the entry as looked up, checked").isEqualTo(AccessError.WRONG_PD);
    }

    @Test
    void aKeyWhoseIndexWasNeverUsedIsNotFound() {
        assertThat(local(MemoryKey.of(mr.index() + 1000, mr.variant()), iova, 8, 0)).isEqualTo(AccessError.KEY_NOT_FOUND);
        assertThat(local(MemoryKey.of(0, 0), iova, 8, 0)).isEqualTo(AccessError.KEY_NOT_FOUND);
        assertThat(remote(0, iova, 8, Access.REMOTE_READ)).isEqualTo(AccessError.KEY_NOT_FOUND);
    }

    @Test
    void theKeyOfADeregisteredMrIsStale() throws RnicException {
        int key = mr.key();
        f.tables.deregisterMr(key);
        assertThat(local(key, iova, 8, 0)).isEqualTo(AccessError.WRONG_VARIANT);
        // The index is given to the next MR, with another variant: the old key stays stale.
        MptEntry next = f.register(f.pages(1), Access.LOCAL_WRITE);
        assertThat(next.index()).isEqualTo(MemoryKey.index(key));
        assertThat(next.key()).isNotEqualTo(key);
        assertThat(local(key, iova, 8, 0)).isEqualTo(AccessError.WRONG_VARIANT);
    }

    @Test
    void theKeyFromBeforeAReregistrationIsStale() throws RnicException {
        int old = mr.key();
        MptEntry again = f.tables.reregisterMr(old, null, null, null, Access.LOCAL_WRITE | Access.REMOTE_READ);
        assertThat(local(old, iova, 8, 0)).isEqualTo(AccessError.WRONG_VARIANT);
        assertThat(remote(old, iova, 8, Access.REMOTE_READ)).isEqualTo(AccessError.WRONG_VARIANT);
        assertThat(local(again.key(), iova, 8, 0)).isEqualTo(AccessError.NONE);
    }

    @Test
    void aRangeThatLeavesTheMrIsRefused() {
        assertThat(local(mr.key(), iova - 1, 1, 0)).as("starts before").isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(local(mr.key(), iova - 1, 2, 0)).as("starts before, ends inside").isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(local(mr.key(), iova + length - 10, 11, 0)).as("ends after").isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(local(mr.key(), iova + length, 1, 0)).as("starts at the end").isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(local(mr.key(), iova + 1, Long.MAX_VALUE, 0)).as("length overflow").isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(local(mr.key(), iova + length - 1, -1, 0)).as("length 2^64-1").isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(local(mr.key(), Long.MIN_VALUE, 8, 0)).as("iova far below").isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(local(mr.key(), -1L, 1, 0)).as("iova 2^64-1").isEqualTo(AccessError.OUT_OF_RANGE);
        // The edges themselves are inside.
        assertThat(local(mr.key(), iova, length, 0)).isEqualTo(AccessError.NONE);
        assertThat(local(mr.key(), iova + length - 1, 1, 0)).isEqualTo(AccessError.NONE);
        assertThat(local(mr.key(), iova + length, 0, 0)).as("empty at the end").isEqualTo(AccessError.NONE);
    }

    @ParameterizedTest(name = "without {0}")
    @ValueSource(ints = {Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC,
            Access.FLUSH_GLOBAL, Access.FLUSH_PERSISTENT})
    void eachMissingRightIsRefused(int right) throws RnicException {
        int access = ALL & ~right;
        if (right == Access.LOCAL_WRITE) {
            access &= ~(Access.REMOTE_WRITE | Access.REMOTE_ATOMIC); // IBTA: those need LOCAL_WRITE
        }
        MptEntry without = f.register(f.pages(1), access);
        long at = without.iova();
        boolean remote = right != Access.LOCAL_WRITE;
        String what = Access.names(right);
        assertThat(f.tables.check(remote ? without.rkey() : without.key(), f.pd, at, 8, right, remote))
                .as("asking for %s", what).isEqualTo(AccessError.NO_PERMISSION);
        assertThat(f.tables.check(remote ? without.rkey() : without.key(), f.pd, at, 8, right | Access.REMOTE_READ, remote))
                .as("asking for %s and more", what).isEqualTo(AccessError.NO_PERMISSION);
        for (int bit = 1; bit <= Access.FLUSH_PERSISTENT; bit <<= 1) {
            if ((access & bit) != 0 && bit != Access.MW_BIND) {
                boolean remoteRight = bit != Access.LOCAL_WRITE;
                assertThat(f.tables.check(without.key(), f.pd, at, 8, bit, remoteRight))
                        .as("without %s, asking for %s", what, Access.names(bit)).isEqualTo(AccessError.NONE);
            }
        }
    }

    @Test
    void anInvalidatedKeyIsRefusedUntilReregistered() throws RnicException {
        assertThat(f.tables.invalidate(mr.key(), f.otherPd)).as("from another PD").isEqualTo(AccessError.WRONG_PD);
        assertThat(local(mr.key(), iova, 8, 0)).isEqualTo(AccessError.NONE);

        assertThat(f.tables.invalidate(mr.key(), f.pd)).isEqualTo(AccessError.NONE);
        assertThat(local(mr.key(), iova, 8, 0)).isEqualTo(AccessError.INVALIDATED);
        assertThat(remote(mr.rkey(), iova, 8, Access.REMOTE_READ)).isEqualTo(AccessError.INVALIDATED);
        assertThatThrownBy(() -> f.tables.inspect(mr.key(), iova))
                .hasMessageContaining(AccessError.INVALIDATED.description());

        MptEntry again = f.tables.reregisterMr(mr.key(), null, null, null, null);
        assertThat(local(again.key(), iova, 8, 0)).isEqualTo(AccessError.NONE);
        assertThat(f.tables.invalidate(MemoryKey.of(999, 0), f.pd)).isEqualTo(AccessError.KEY_NOT_FOUND);
    }

    @Test
    void zeroBasedKeysStartAtIovaZero() throws RnicException {
        MptEntry zero = f.tables.registerMr(f.pd, buffer, buffer.address(), Access.LOCAL_WRITE | Access.ZERO_BASED);
        assertThat(zero.iova()).isZero();
        assertThat(local(zero.key(), 0, length, Access.LOCAL_WRITE)).isEqualTo(AccessError.NONE);
        assertThat(f.tables.inspect(zero.key(), 0).address()).isEqualTo(buffer.address());
        assertThat(f.tables.inspect(zero.key(), length - 1).address()).isEqualTo(buffer.address() + length - 1);
        assertThat(local(zero.key(), length, 1, 0)).isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(local(zero.key(), buffer.address(), 1, 0)).as("the buffer's own address").isEqualTo(AccessError.OUT_OF_RANGE);
    }

    @Test
    void anMrWithoutRemoteAccessHasNoRkey() throws RnicException {
        MptEntry localOnly = f.register(f.pages(1), Access.LOCAL_WRITE);
        assertThat(localOnly.rkey()).isZero();
        assertThat(f.tables.check(localOnly.key(), f.pd, localOnly.iova(), 8, 0, true))
                .as("its L_Key used as an R_Key").isEqualTo(AccessError.WRONG_KIND);
        assertThat(mr.rkey()).as("an MR with remote access: R_Key = L_Key, as in rxe").isEqualTo(mr.key());
        MptEntry readOnly = f.register(f.pages(1), Access.REMOTE_READ);
        assertThat(readOnly.rkey()).isEqualTo(readOnly.key());
    }

    @Test
    void aWindowKeyIsNoLkey() throws RnicException {
        MptEntry mw = f.tables.allocateMw(f.pd, 1);
        int rkey = f.tables.bindMw(mw.key(), f.pd, mr.key(), iova, 64, Access.REMOTE_READ, -1);
        assertThat(remote(rkey, iova, 64, Access.REMOTE_READ)).isEqualTo(AccessError.NONE);
        assertThat(local(rkey, iova, 64, 0)).isEqualTo(AccessError.WRONG_KIND);
    }

    @Test
    void memoryWhoseArenaWasClosedIsRefusedNotTouched() throws RnicException {
        java.lang.foreign.Arena own = java.lang.foreign.Arena.ofShared();
        java.lang.foreign.MemorySegment freed = own.allocate(4096, 4096);
        MptEntry e = f.tables.registerMr(f.pd, freed, freed.address(), ALL);
        assertThat(remote(e.rkey(), freed.address(), 8, Access.REMOTE_WRITE)).isEqualTo(AccessError.NONE);
        own.close();
        assertThat(remote(e.rkey(), freed.address(), 8, Access.REMOTE_WRITE)).isEqualTo(AccessError.MEMORY_FREED);
        assertThat(local(e.key(), freed.address(), 8, 0)).isEqualTo(AccessError.MEMORY_FREED);
        assertThat(AccessError.MEMORY_FREED.code()).as("vendor_err, after the eight older reasons").isEqualTo(9);
    }
}
