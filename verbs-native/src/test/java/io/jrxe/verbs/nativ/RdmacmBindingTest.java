package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.PortSpace;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * librdmacm as the native provider binds it: every function there, the event names the same as
 * librdmacm's, the reasons given when the library or the kernel's CM is missing, and a channel's
 * life where the kernel has a CM. What needs a device runs in the lab (NativeCmInteropTest).
 */
class RdmacmBindingTest {
    @Test
    void everyFunctionBinds() throws Exception {
        NativeHost.assumeLibrdmacm();
        Rdmacm lib = Rdmacm.load(Rdmacm.DEFAULT_LIBRARY);
        lib.bindAll();
        assertThat(Rdmacm.SIGNATURES).hasSize(17);
    }

    @Test
    void everyEventTypeHasTheNameRdmaEventStrGivesIt() throws Exception {
        NativeHost.assumeLibrdmacm();
        Rdmacm lib = Rdmacm.load(Rdmacm.DEFAULT_LIBRARY);
        for (CmEventType t : CmEventType.values()) {
            assertThat(t.librdmacmName()).isEqualTo(lib.eventName(t.value()));
        }
        assertThat(lib.eventName(CmEventType.values().length)).isEqualTo("UNKNOWN EVENT");
    }

    @Test
    void aLibraryThatIsNotThereIsReportedByName() {
        assertThatThrownBy(() -> Rdmacm.load("librdmacm-jrxe-missing.so.1"))
                .hasMessage("librdmacm not installed (Debian: librdmacm1): cannot load librdmacm-jrxe-missing.so.1");
    }

    @Test
    void withoutLibrdmacmTheProviderSaysWhichPackageIsMissing() {
        NativeHost.assumeLibibverbs();
        NativeProvider p = new NativeProvider(Ibverbs.DEFAULT_LIBRARY, "/nonexistent/librdmacm-jrxe-test.so.1");
        assertThatThrownBy(p::rdmaCm).isInstanceOf(VerbsException.class)
                .hasMessage("no native connection manager: librdmacm not installed (Debian: librdmacm1): "
                        + "cannot load /nonexistent/librdmacm-jrxe-test.so.1")
                .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.ENOSYS));
    }

    @Test
    void withoutLibibverbsTheProviderSaysSoToo() {
        NativeProvider p = new NativeProvider("/nonexistent/libibverbs-jrxe-test.so.1", Rdmacm.DEFAULT_LIBRARY);
        assertThatThrownBy(p::rdmaCm).isInstanceOf(VerbsException.class)
                .hasMessageStartingWith("no native connection manager: libibverbs not installed (Debian: libibverbs1, ibverbs-providers)");
    }

    @Test
    void withoutTheKernelsCmAChannelIsRefusedWithTheReason() throws Exception {
        NativeHost.assumeLibrdmacm();
        assumeKernelCm(false);
        var cm = new NativeProvider().rdmaCm();
        assertThat(cm.provider()).isEqualTo("native");
        assertThatThrownBy(cm::createEventChannel).isInstanceOf(NativeVerbsException.class)
                .hasMessage("rdma_create_event_channel: No such device (errno 19): this kernel offers no RDMA connection"
                        + " manager (/dev/infiniband/rdma_cm is missing: no RDMA device, or the module rdma_ucm is not loaded)")
                .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.ENODEV));
    }

    @Test
    void aChannelMakesIdentifiersWaitsWithATimeoutAndClosesThem() throws Exception {
        NativeHost.assumeLibrdmacm();
        assumeKernelCm(true);
        CmEventChannel channel = new NativeProvider().rdmaCm().createEventChannel();
        CmId id;
        try {
            id = channel.createId(PortSpace.TCP, "mine");
            assertThat(id.userContext()).isEqualTo("mine");
            assertThat(id.context()).as("no device before an address binds").isNull();
            assertThat(id.localAddress()).isNull();
            assertThat(channel.pollEvent()).isNull();
            long start = System.nanoTime();
            assertThat(channel.getEvent(120, TimeUnit.MILLISECONDS)).isNull();
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(100_000_000L);
        } finally {
            channel.close();
        }
        assertThatThrownBy(() -> id.listen(1)).isInstanceOf(VerbsException.class).hasMessage("the CM identifier is destroyed");
        assertThatThrownBy(() -> channel.createId(PortSpace.TCP, null)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("is closed");
    }

    private static void assumeKernelCm(boolean wanted) {
        boolean present = Files.exists(NativeRdmaCm.RDMA_CM_DEVICE);
        String reason = present ? "this kernel has an RDMA CM (" + NativeRdmaCm.RDMA_CM_DEVICE + ")"
                : "this kernel has no RDMA CM (" + NativeRdmaCm.RDMA_CM_DEVICE + " is missing)";
        if (present != wanted) {
            System.err.println("SKIPPED: " + reason);
        }
        Assumptions.assumeTrue(present == wanted, reason);
    }
}
