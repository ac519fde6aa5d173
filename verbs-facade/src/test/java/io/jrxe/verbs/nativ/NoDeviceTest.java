package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Device;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Verbs;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The native provider where there is nothing to drive: no libibverbs, or a kernel without RDMA
 * (this machine and CI). Listing never throws; the provider says why it lists nothing.
 */
class NoDeviceTest {
    @Test
    void withoutLibibverbsTheReasonNamesTheDebianPackages() {
        NativeProvider p = new NativeProvider("/nonexistent/libibverbs-jrxe-test.so.1");
        assertThat(p.devices()).isEmpty();
        assertThat(p.whyNoDevices()).contains("libibverbs not installed (Debian: libibverbs1, ibverbs-providers)");
    }

    @Test
    void aKernelWithoutRdmaIsSaidToBeOne() {
        assumeLibibverbs();
        boolean kernelHasRdma = Files.isDirectory(Path.of("/sys/class/infiniband_verbs"));
        if (kernelHasRdma) {
            System.err.println("SKIPPED: this kernel has RDMA support (/sys/class/infiniband_verbs)");
        }
        Assumptions.assumeFalse(kernelHasRdma, "this kernel has RDMA support");
        NativeProvider p = new NativeProvider();
        assertThat(p.devices()).isEmpty();
        assertThat(p.whyNoDevices().orElseThrow())
                .startsWith("no RDMA devices: the kernel has no RDMA support")
                .contains("Function not implemented");
    }

    @Test
    void verbsListsEmulatedDevicesAndNoNativeOneWithoutThrowing() throws Exception {
        assumeLibibverbs();
        List<Device> all = Verbs.deviceList();
        assertThat(all).noneMatch(d -> d.provider().equals(NativeProvider.NAME) && !kernelHasDevices());
        assertThat(Verbs.nativeProvider().whyNoDevices().isPresent()).isEqualTo(!kernelHasDevices());
    }

    @Test
    void askingForRxe0SaysWhyThereIsNone() {
        Assumptions.assumeFalse(kernelHasDevices(), "this machine has RDMA devices");
        assertThatThrownBy(() -> Verbs.device("rxe0"))
                .hasMessageContaining("no RDMA device named rxe0")
                .hasMessageContaining("(native: ")
                .satisfies(e -> assertThat(((io.jrxe.verbs.VerbsException) e).errno()).isEqualTo(Errno.ENODEV));
        assertThatThrownBy(() -> Verbs.device("native", "rxe0")).hasMessageContaining("no RDMA device named rxe0");
        assertThatThrownBy(() -> Verbs.device("mellanox", "rxe0")).hasMessageContaining("no provider named mellanox");
    }

    static boolean kernelHasDevices() {
        Path dir = Path.of("/sys/class/infiniband");
        try (var s = Files.list(dir)) {
            return s.findAny().isPresent();
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static void assumeLibibverbs() {
        boolean installed = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libibverbs.so.1"))
                || Files.exists(Path.of("/usr/lib/aarch64-linux-gnu/libibverbs.so.1"));
        if (!installed) {
            System.err.println("SKIPPED: libibverbs is not installed (Debian package libibverbs1)");
        }
        Assumptions.assumeTrue(installed, "libibverbs is not installed (Debian package libibverbs1)");
    }
}
