package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** What reg_mr (and rereg_mr) refuses before taking anything: the access rules and the memory itself. */
class RegistrationRulesTest {
    private final MemoryFixture f = new MemoryFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private RnicException refused(MemorySegment segment, int access) {
        RnicException e = catchThrowableOfType(RnicException.class, () -> f.register(segment, access));
        assertThat(e).as("registration with %s must be refused", Access.names(access)).isNotNull();
        assertThat(f.tables.mrCount()).isZero();
        assertThat(f.tables.mtt().usedEntries()).isZero();
        assertThat(f.pd.holders().isEmpty()).isTrue();
        return e;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {Access.REMOTE_WRITE, Access.REMOTE_ATOMIC, Access.REMOTE_WRITE | Access.REMOTE_READ,
            Access.REMOTE_ATOMIC | Access.MW_BIND})
    void remoteWriteAndAtomicNeedLocalWrite(int access) throws RnicException {
        RnicException e = refused(f.pages(1), access);
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.getMessage()).isEqualTo("register MR: REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE (IBTA C10-41); "
                + "asked for " + Access.names(access));
        assertThat(f.register(f.pages(1), access | Access.LOCAL_WRITE).access()).isEqualTo(access | Access.LOCAL_WRITE);
    }

    @Test
    void remoteReadAloneIsFine() throws RnicException {
        assertThat(f.register(f.pages(1), Access.REMOTE_READ).rkey()).isNotZero();
        assertThat(f.register(f.pages(1), 0).rkey()).isZero();
    }

    @Test
    void heapMemoryIsRefused() {
        RnicException e = refused(MemorySegment.ofArray(new byte[8192]), Access.LOCAL_WRITE);
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.getMessage()).isEqualTo(
                "register MR: the memory must be native (a MemorySegment from an Arena), not a heap segment");
    }

    @Test
    void emptyMemoryIsRefused() {
        assertThat(refused(f.pages(1).asSlice(0, 0), Access.LOCAL_WRITE).getMessage())
                .isEqualTo("register MR: the memory is empty (0 bytes)");
    }

    @Test
    void unsupportedAccessBitsAreRefused() {
        assertThat(refused(f.pages(1), Access.LOCAL_WRITE | 1 << 12).getMessage())
                .isEqualTo("register MR: unsupported access bits 0x1000");
        assertThat(refused(f.pages(1), 1 << 7).getMessage()).isEqualTo("register MR: unsupported access bits 0x80");
    }

    @Test
    void theDeviceMaxMrSizeIsEnforced() {
        try (MemoryFixture small = new MemoryFixture(DeviceAttributes.builder().maxMrSize(2 * MemoryFixture.PAGE).build())) {
            MemorySegment three = small.pages(3);
            RnicException e = catchThrowableOfType(RnicException.class, () -> small.register(three, Access.LOCAL_WRITE));
            assertThat(e.getMessage()).isEqualTo("register MR: 12288 bytes exceed the device's max_mr_size 8192");
        }
    }

    @Test
    void reregistrationChecksTheSameRulesAndKeepsTheMrWhenRefused() throws RnicException {
        MptEntry mr = f.register(f.pages(2), Access.LOCAL_WRITE);
        int key = mr.key();
        RnicException e = catchThrowableOfType(RnicException.class,
                () -> f.tables.reregisterMr(key, null, null, null, Access.REMOTE_WRITE));
        assertThat(e.getMessage()).contains("REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE");
        RnicException heap = catchThrowableOfType(RnicException.class,
                () -> f.tables.reregisterMr(key, null, MemorySegment.ofArray(new byte[64]), null, null));
        assertThat(heap.getMessage()).contains("must be native");
        assertThat(mr.key()).isEqualTo(key);
        assertThat(f.tables.check(key, f.pd, mr.iova(), 8, Access.LOCAL_WRITE, false)).isEqualTo(AccessError.NONE);
    }
}
