package io.jrxe.verbs.facade;

import io.jrxe.verbs.*;

import io.jrxe.verbs.nativ.NativeHost;
import io.jrxe.verbs.nativ.NativeProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The entry point where the native provider has nothing to drive (this machine and CI): listing
 * never throws, and asking for a kernel device by name says why there is none.
 */
class VerbsWithoutNativeDevicesTest {
    @Test
    void verbsListsEmulatedDevicesAndNoNativeOneWithoutThrowing() throws Exception {
        NativeHost.assumeLibibverbs();
        List<Device> all = Verbs.deviceList();
        assertThat(all).noneMatch(d -> d.provider().equals(NativeProvider.NAME) && !NativeHost.kernelHasDevices());
        assertThat(Verbs.nativeProvider().whyNoDevices().isPresent()).isEqualTo(!NativeHost.kernelHasDevices());
    }

    @Test
    void askingForRxe0SaysWhyThereIsNone() {
        Assumptions.assumeFalse(NativeHost.kernelHasDevices(), "this machine has RDMA devices");
        assertThatThrownBy(() -> Verbs.device("rxe0"))
                .hasMessageContaining("no RDMA device named rxe0")
                .hasMessageContaining("(native: ")
                .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.ENODEV));
        assertThatThrownBy(() -> Verbs.device("native", "rxe0")).hasMessageContaining("no RDMA device named rxe0");
        assertThatThrownBy(() -> Verbs.device("mellanox", "rxe0")).hasMessageContaining("no provider named mellanox");
    }
}
