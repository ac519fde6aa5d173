package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Memory windows: allocated unbound, bound to a range of an MR that allows MW_BIND and shares
 * their PD, translated through that MR's pages, unbound and (type 2) invalidated; an MR cannot
 * be deregistered or re-registered while windows are bound to it.
 */
class MemoryWindowTest {
    private static final int MR_ACCESS = Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE | Access.MW_BIND;

    private final MemoryFixture f = new MemoryFixture();
    private MemorySegment buffer;
    private MptEntry mr;

    @BeforeEach
    void register() throws RnicException {
        buffer = f.unaligned(4 * MemoryFixture.PAGE, 300);
        mr = f.register(buffer, MR_ACCESS);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private RnicException bindRefused(int mwKey, ProtectionDomain qpPd, int mrKey, long addr, long length, int access,
                                      int variant) {
        RnicException e = catchThrowableOfType(RnicException.class,
                () -> f.tables.bindMw(mwKey, qpPd, mrKey, addr, length, access, variant));
        assertThat(e).as("bind must be refused").isNotNull();
        return e;
    }

    @Test
    void aType1WindowBindsRebindsAndUnbinds() throws RnicException {
        MptEntry mw = f.tables.allocateMw(f.pd, 1);
        assertThat(mw.kind()).isEqualTo(KeyKind.MW_TYPE_1);
        assertThat(mw.state()).isEqualTo(MptEntry.State.INVALID);
        int unbound = mw.key();
        assertThat(f.tables.check(unbound, f.pd, 0, 1, Access.REMOTE_READ, true)).isEqualTo(AccessError.MW_NOT_BOUND);

        long at = buffer.address() + 5000;
        int rkey = f.tables.bindMw(unbound, f.pd, mr.key(), at, 8000, Access.REMOTE_READ, -1);
        assertThat(MemoryKey.index(rkey)).isEqualTo(mw.index());
        assertThat(rkey).isNotEqualTo(unbound);
        assertThat(f.tables.check(unbound, f.pd, at, 8, Access.REMOTE_READ, true)).isEqualTo(AccessError.WRONG_VARIANT);
        assertThat(f.tables.check(rkey, f.pd, at, 8000, Access.REMOTE_READ, true)).isEqualTo(AccessError.NONE);
        assertThat(f.tables.check(rkey, f.pd, at - 1, 8, Access.REMOTE_READ, true)).isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(f.tables.check(rkey, f.pd, at + 7999, 2, Access.REMOTE_READ, true)).isEqualTo(AccessError.OUT_OF_RANGE);
        assertThat(f.tables.check(rkey, f.pd, at, 8, Access.REMOTE_WRITE, true))
                .as("the window grants less than its MR").isEqualTo(AccessError.NO_PERMISSION);
        assertThat(mr.boundWindows()).isEqualTo(1);
        // The window translates through its MR's pages.
        long boundary = MemoryFixture.PAGE - (at & (MemoryFixture.PAGE - 1));
        for (long off : new long[] {0, 1, boundary - 1, boundary, boundary + MemoryFixture.PAGE - 1,
                boundary + MemoryFixture.PAGE, 7999}) {
            Translation t = f.tables.inspect(rkey, at + off);
            assertThat(t.address()).as("offset %d", off).isEqualTo(at + off);
            assertThat(t.mttIndex()).isEqualTo(f.tables.inspect(mr.key(), at + off).mttIndex());
        }

        int rebound = f.tables.bindMw(rkey, f.pd, mr.key(), buffer.address(), 16, Access.REMOTE_WRITE, -1);
        assertThat(rebound).isNotEqualTo(rkey);
        assertThat(mr.boundWindows()).as("a rebind does not count twice").isEqualTo(1);
        assertThat(f.tables.check(rkey, f.pd, at, 8, Access.REMOTE_READ, true)).isEqualTo(AccessError.WRONG_VARIANT);

        int afterUnbind = f.tables.bindMw(rebound, f.pd, 0, 0, 0, 0, -1);
        assertThat(mr.boundWindows()).isZero();
        assertThat(f.tables.check(afterUnbind, f.pd, buffer.address(), 8, Access.REMOTE_WRITE, true))
                .isEqualTo(AccessError.MW_NOT_BOUND);
        f.tables.deregisterMr(mr.key());
    }

    @Test
    void aRefusedRebindKeepsTheOldBinding() throws RnicException {
        MptEntry mw = f.tables.allocateMw(f.pd, 1);
        int rkey = f.tables.bindMw(mw.key(), f.pd, mr.key(), buffer.address(), 64, Access.REMOTE_READ, -1);
        bindRefused(rkey, f.pd, mr.key(), buffer.address() - 1, 64, Access.REMOTE_READ, -1);
        assertThat(mw.key()).isEqualTo(rkey);
        assertThat(mr.boundWindows()).isEqualTo(1);
        assertThat(f.tables.check(rkey, f.pd, buffer.address(), 64, Access.REMOTE_READ, true)).isEqualTo(AccessError.NONE);
    }

    @Test
    void aType1WindowCannotBeInvalidated() throws RnicException {
        MptEntry mw = f.tables.allocateMw(f.pd, 1);
        int rkey = f.tables.bindMw(mw.key(), f.pd, mr.key(), buffer.address(), 64, Access.REMOTE_READ, -1);
        assertThat(f.tables.invalidate(rkey, f.pd)).isEqualTo(AccessError.WRONG_KIND);
        assertThat(f.tables.check(rkey, f.pd, buffer.address(), 64, Access.REMOTE_READ, true)).isEqualTo(AccessError.NONE);
    }

    @Test
    void aType2WindowTakesTheCallersVariantAndMustBeInvalidatedBeforeRebinding() throws RnicException {
        MptEntry mw = f.tables.allocateMw(f.pd, 2);
        int rkey = f.tables.bindMw(mw.key(), f.pd, mr.key(), buffer.address(), 4096, Access.REMOTE_WRITE, 0x42);
        assertThat(rkey).isEqualTo(MemoryKey.of(mw.index(), 0x42));
        assertThat(f.tables.check(rkey, f.pd, buffer.address(), 4096, Access.REMOTE_WRITE, true)).isEqualTo(AccessError.NONE);

        RnicException again = bindRefused(rkey, f.pd, mr.key(), buffer.address(), 8, Access.REMOTE_READ, 0x43);
        assertThat(again.getMessage()).isEqualTo(String.format(
                "bind MW 0x%08x: a type 2 window must be invalidated before it is bound again", rkey));

        assertThat(f.tables.invalidate(rkey, f.otherPd)).isEqualTo(AccessError.WRONG_PD);
        assertThat(f.tables.invalidate(rkey, f.pd)).isEqualTo(AccessError.NONE);
        assertThat(mr.boundWindows()).isZero();
        assertThat(f.tables.check(rkey, f.pd, buffer.address(), 8, Access.REMOTE_WRITE, true)).isEqualTo(AccessError.MW_NOT_BOUND);

        int next = f.tables.bindMw(rkey, f.pd, mr.key(), buffer.address() + 8, 8, Access.REMOTE_READ, 0x43);
        assertThat(next).isEqualTo(MemoryKey.of(mw.index(), 0x43));
        assertThat(f.tables.check(next, f.pd, buffer.address() + 8, 8, Access.REMOTE_READ, true)).isEqualTo(AccessError.NONE);
    }

    @Test
    void aZeroBasedType2WindowStartsAtIovaZero() throws RnicException {
        MptEntry mw = f.tables.allocateMw(f.pd, 2);
        long at = buffer.address() + 4000;
        int rkey = f.tables.bindMw(mw.key(), f.pd, mr.key(), at, 200, Access.REMOTE_READ | Access.ZERO_BASED, 7);
        assertThat(f.tables.check(rkey, f.pd, 0, 200, Access.REMOTE_READ, true)).isEqualTo(AccessError.NONE);
        assertThat(f.tables.inspect(rkey, 0).address()).isEqualTo(at);
        assertThat(f.tables.inspect(rkey, 199).address()).isEqualTo(at + 199);
        assertThat(f.tables.check(rkey, f.pd, 200, 1, Access.REMOTE_READ, true)).isEqualTo(AccessError.OUT_OF_RANGE);

        MptEntry type1 = f.tables.allocateMw(f.pd, 1);
        assertThat(bindRefused(type1.key(), f.pd, mr.key(), at, 200, Access.REMOTE_READ | Access.ZERO_BASED, -1)
                .getMessage()).contains("type 1 windows cannot be ZERO_BASED");
    }

    @Test
    void theMrMustAllowMwBind() throws RnicException {
        MptEntry plain = f.register(f.pages(1), Access.LOCAL_WRITE | Access.REMOTE_READ);
        MptEntry mw = f.tables.allocateMw(f.pd, 1);
        RnicException e = bindRefused(mw.key(), f.pd, plain.key(), plain.iova(), 8, Access.REMOTE_READ, -1);
        assertThat(e.errno()).isEqualTo(Errno.EACCES);
        assertThat(e.getMessage()).isEqualTo(String.format(
                "bind MW 0x%08x: MR 0x%08x was not registered with MW_BIND (it has LOCAL_WRITE|REMOTE_READ)",
                mw.key(), plain.key()));
        assertThat(plain.boundWindows()).isZero();
        assertThat(mw.state()).isEqualTo(MptEntry.State.INVALID);
    }

    @Test
    void windowMrAndQpShareOnePd() throws RnicException {
        MptEntry foreign = f.tables.allocateMw(f.otherPd, 1);
        RnicException e = bindRefused(foreign.key(), null, mr.key(), buffer.address(), 8, Access.REMOTE_READ, -1);
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.getMessage()).isEqualTo(String.format(
                "bind MW 0x%08x: the window (%s), the MR (%s) and the QP must share one PD", foreign.key(), f.otherPd, f.pd));

        MptEntry mine = f.tables.allocateMw(f.pd, 1);
        assertThat(bindRefused(mine.key(), f.otherPd, mr.key(), buffer.address(), 8, Access.REMOTE_READ, -1).getMessage())
                .as("the binding QP in another PD").contains("must share one PD");
        assertThat(mr.boundWindows()).isZero();
    }

    @Test
    void theRangeMustBeInsideTheMr() throws RnicException {
        MptEntry mw = f.tables.allocateMw(f.pd, 1);
        long start = buffer.address();
        long size = buffer.byteSize();
        assertThat(bindRefused(mw.key(), f.pd, mr.key(), start - 1, 8, Access.REMOTE_READ, -1).getMessage())
                .isEqualTo(String.format("bind MW 0x%08x: range 0x%x+8 is outside MR 0x%08x (0x%x+%d)",
                        mw.key(), start - 1, mr.key(), start, size));
        assertThat(bindRefused(mw.key(), f.pd, mr.key(), start + size - 4, 8, Access.REMOTE_READ, -1).getMessage())
                .contains("is outside MR");
        assertThat(bindRefused(mw.key(), f.pd, mr.key(), start, Long.MAX_VALUE, Access.REMOTE_READ, -1).getMessage())
                .contains("is outside MR");
        int whole = f.tables.bindMw(mw.key(), f.pd, mr.key(), start, size, Access.REMOTE_READ, -1);
        assertThat(f.tables.check(whole, f.pd, start, size, Access.REMOTE_READ, true)).isEqualTo(AccessError.NONE);
    }

    @Test
    void remoteWriteOnAWindowNeedsLocalWriteOnItsMr() throws RnicException {
        MptEntry readOnly = f.register(f.pages(1), Access.REMOTE_READ | Access.MW_BIND);
        MptEntry mw = f.tables.allocateMw(f.pd, 1);
        for (int access : new int[] {Access.REMOTE_WRITE, Access.REMOTE_ATOMIC}) {
            RnicException e = bindRefused(mw.key(), f.pd, readOnly.key(), readOnly.iova(), 8, access, -1);
            assertThat(e.errno()).isEqualTo(Errno.EACCES);
            assertThat(e.getMessage()).contains("REMOTE_WRITE/REMOTE_ATOMIC on a window need LOCAL_WRITE on its MR");
        }
        int rkey = f.tables.bindMw(mw.key(), f.pd, readOnly.key(), readOnly.iova(), 8, Access.REMOTE_READ, -1);
        assertThat(f.tables.check(rkey, f.pd, readOnly.iova(), 8, Access.REMOTE_READ, true)).isEqualTo(AccessError.NONE);
    }

    @Test
    void anMrWithBoundWindowsCannotBeDeregisteredOrReregistered() throws RnicException {
        MptEntry one = f.tables.allocateMw(f.pd, 1);
        MptEntry two = f.tables.allocateMw(f.pd, 2);
        int k1 = f.tables.bindMw(one.key(), f.pd, mr.key(), buffer.address(), 8, Access.REMOTE_READ, -1);
        f.tables.bindMw(two.key(), f.pd, mr.key(), buffer.address() + 8, 8, Access.REMOTE_READ, 9);

        RnicException dereg = catchThrowableOfType(RnicException.class, () -> f.tables.deregisterMr(mr.key()));
        assertThat(dereg.errno()).isEqualTo(Errno.EBUSY);
        assertThat(dereg.getMessage()).isEqualTo(String.format(
                "cannot deregister MR 0x%08x: 2 memory window(s) are bound to it", mr.key()));
        RnicException rereg = catchThrowableOfType(RnicException.class,
                () -> f.tables.reregisterMr(mr.key(), null, null, null, MR_ACCESS));
        assertThat(rereg.errno()).isEqualTo(Errno.EBUSY);
        assertThat(rereg.getMessage()).contains("2 memory window(s) are bound to it");
        assertThat(f.tables.invalidate(mr.key(), f.pd)).as("nor invalidated").isEqualTo(AccessError.NO_PERMISSION);

        f.tables.deallocateMw(k1);
        assertThat(catchThrowableOfType(RnicException.class, () -> f.tables.deregisterMr(mr.key())).getMessage())
                .contains(": 1 memory window(s) are bound to it");
        f.tables.deallocateMw(MemoryKey.of(two.index(), 9));
        f.tables.deregisterMr(mr.key());
        assertThat(f.tables.mwCount()).isZero();
        assertThat(f.tables.mrCount()).isZero();
        assertThat(f.pd.holders().isEmpty()).isTrue();
    }

    @Test
    void windowsOfTheWrongTypeOrAnUnsupportedOneAreRefused() {
        RnicException three = catchThrowableOfType(RnicException.class, () -> f.tables.allocateMw(f.pd, 3));
        assertThat(three.errno()).isEqualTo(Errno.EINVAL);
        assertThat(three.getMessage()).isEqualTo("memory window type must be 1 or 2, not 3");
        try (MemoryFixture noType2 = new MemoryFixture(DeviceAttributes.builder().memoryWindowType2(false).build())) {
            RnicException e = catchThrowableOfType(RnicException.class, () -> noType2.tables.allocateMw(noType2.pd, 2));
            assertThat(e.errno()).isEqualTo(Errno.EOPNOTSUPP);
            assertThat(e.getMessage()).isEqualTo("this device does not support memory window type 2");
        }
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(ints = {1, 2})
    void anMrKeyIsNoWindowKeyAndTheReverse(int type) throws RnicException {
        MptEntry mw = f.tables.allocateMw(f.pd, type);
        RnicException bindAnMr = bindRefused(mr.key(), f.pd, mr.key(), buffer.address(), 8, Access.REMOTE_READ, 1);
        assertThat(bindAnMr.getMessage()).isEqualTo(String.format("bind MW 0x%08x: the key is not a memory window", mr.key()));
        RnicException toAWindow = bindRefused(mw.key(), f.pd, mw.key(), 0, 8, Access.REMOTE_READ, 1);
        assertThat(toAWindow.getMessage()).contains("is not a valid MR");
        RnicException deregAWindow = catchThrowableOfType(RnicException.class, () -> f.tables.deregisterMr(mw.key()));
        assertThat(deregAWindow.getMessage()).contains("the key is not an MR");
        assertThat(mw.toString()).isEqualTo(String.format("MW type %d key 0x%08x", type, mw.key()));
    }
}
