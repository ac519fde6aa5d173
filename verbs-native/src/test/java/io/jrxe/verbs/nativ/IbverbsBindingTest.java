package io.jrxe.verbs.nativ;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The installed libibverbs has every function jrxe calls by name, and the linker takes each signature. */
class IbverbsBindingTest {
    @Test
    void everyExportedFunctionBinds() throws Exception {
        NativeHost.assumeLibibverbs();
        Ibverbs lib = Ibverbs.load(Ibverbs.DEFAULT_LIBRARY);
        lib.bindAll();
        assertThat(Signatures.EXPORTED).hasSizeGreaterThan(30);
    }

    @Test
    void aNullFromACreatingFunctionBecomesItsErrno() throws Exception {
        NativeHost.assumeLibibverbs();
        Ibverbs lib = Ibverbs.load(Ibverbs.DEFAULT_LIBRARY);
        // Without RDMA in the kernel the device list is NULL with ENOSYS: create() names the function and the error.
        org.junit.jupiter.api.Assumptions.assumeFalse(NativeHost.kernelHasDevices(), "this machine has RDMA devices");
        assertThatThrownBy(() -> lib.create("ibv_get_device_list", MemorySegment.NULL))
                .isInstanceOf(NativeVerbsException.class)
                .hasMessage("ibv_get_device_list: Function not implemented (errno 38)")
                .satisfies(e -> assertThat(((NativeVerbsException) e).nativeErrno()).isEqualTo(38));
    }

    @Test
    void aLibraryThatIsNotThereIsReportedByName() {
        assertThatThrownBy(() -> Ibverbs.load("libibverbs-jrxe-missing.so.1"))
                .hasMessage("libibverbs not installed (Debian: libibverbs1, ibverbs-providers): cannot load libibverbs-jrxe-missing.so.1");
    }

    @Test
    void aWaitOnAnFdThatNeverBecomesReadableEndsByItsTimeout() throws Exception {
        // fd -1 is ignored by poll(2): the wait ends by its timeout, and says so.
        long start = System.nanoTime();
        assertThat(FdWait.readable(-1, 120)).isFalse();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(100_000_000L);
    }
}
