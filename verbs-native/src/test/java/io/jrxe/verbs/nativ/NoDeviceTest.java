package io.jrxe.verbs.nativ;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

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
        NativeHost.assumeLibibverbs();
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
}
