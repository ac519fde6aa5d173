package io.jrxe.tools.common;

import io.jrxe.tools.UserError;
import io.jrxe.verbs.nativ.NativeProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** -d picks a provider by the name, --provider explicitly; a name nobody has is an error that says why. */
class ProviderChoiceTest {
    /** A provider whose libibverbs is missing: it has no devices, and says why. */
    private static final NativeProvider WITHOUT_LIBIBVERBS = new NativeProvider("/nonexistent/libibverbs-jrxe-test.so.1");

    @Test
    void jrxeNamesAreJrxeNicsWithoutAskingTheKernel() {
        NativeProvider untouched = new NativeProvider("/nonexistent/libibverbs-jrxe-untouched.so.1");
        assertThat(ProviderChoice.of("jrxe0", null, untouched)).isEqualTo(new ProviderChoice.Emulated("jrxe0"));
        assertThat(ProviderChoice.of("jrxe-pp-client", null, untouched)).isInstanceOf(ProviderChoice.Emulated.class);
        assertThat(ProviderChoice.of("rxe0", "emulated", untouched)).isEqualTo(new ProviderChoice.Emulated("rxe0"));
        // Neither choice listed the kernel's devices, so the provider has no reason yet: it lists them only now.
        assertThat(untouched.whyNoDevices()).contains("libibverbs not installed (Debian: libibverbs1, ibverbs-providers)");
    }

    @Test
    void aKernelNameWithoutTheKernelDeviceSaysWhyInOneLine() {
        assertThatThrownBy(() -> ProviderChoice.of("rxe0", null, WITHOUT_LIBIBVERBS))
                .isInstanceOf(UserError.class)
                .hasMessage("no RDMA device named rxe0: libibverbs not installed (Debian: libibverbs1, ibverbs-providers); "
                        + "jrxe's own devices are named jrxe0, jrxe1, ... (--provider emulated makes one of any name)");
        assertThatThrownBy(() -> ProviderChoice.of("jrxe0", "native", WITHOUT_LIBIBVERBS))
                .isInstanceOf(UserError.class)
                .hasMessage("no native RDMA device named jrxe0: libibverbs not installed (Debian: libibverbs1, "
                        + "ibverbs-providers)");
    }

    @Test
    void thisMachinesReasonIsTheProviders() {
        NativeProvider system = new NativeProvider();
        org.junit.jupiter.api.Assumptions.assumeTrue(system.devices().stream().noneMatch(d -> d.name().equals("rxe9")));
        String why = system.whyNoDevices().orElse("the kernel's are ");
        assertThatThrownBy(() -> ProviderChoice.of("rxe9", null, system))
                .isInstanceOf(UserError.class)
                .hasMessageStartingWith("no RDMA device named rxe9: " + why)
                .hasMessageNotContaining("\n");
    }

    @Test
    void anUnknownProviderIsNamedWithTheTwoThereAre() {
        assertThatThrownBy(() -> ProviderChoice.of("jrxe0", "mellanox", WITHOUT_LIBIBVERBS))
                .isInstanceOf(UserError.class)
                .hasMessage("--provider mellanox: emulated (a jrxe NIC) or native (a kernel device through libibverbs)");
    }
}
