package io.jrxe.verbs.emulated;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.KeyKind;
import io.jrxe.rnic.memory.Translation;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.spi.WorkCompletionFiller;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Proxy;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The emulated provider's extension: reached from its objects only, and what each ability answers. */
class EmulatedExtensionTest {
    private EmulatedDevice device;
    private Context ctx;
    private EmulatedExtension jrxe;

    @BeforeEach
    void open() throws Exception {
        device = Verbs.emulated().create(DeviceConfig.of("jrxe-ext" + System.nanoTime(), InetAddress.getByName("127.0.0.2")),
                NicExecutor.INLINE);
        ctx = device.open();
        jrxe = EmulatedExtension.of(ctx).orElseThrow();
    }

    @AfterEach
    void close() {
        Verbs.emulated().remove(device);
    }

    private static WorkCompletion wc(WcStatus status, int vendorErr) {
        return WorkCompletionFiller.fill(new WorkCompletion(), 7, status, WcOpcode.RDMA_WRITE, vendorErr, 0, 0, 0x11, 0, 0, 0);
    }

    /** A verbs object of some other provider: every method answers null. */
    private static <T> T foreign(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> null));
    }

    @Test
    void everyEmulatedObjectReachesTheExtensionOfItsDeviceAndNoOtherObjectDoes() throws Exception {
        Cq cq = ctx.createCq(4, null);
        assertThat(EmulatedExtension.of((Device) device).orElseThrow().device()).isSameAs(device);
        assertThat(jrxe.device()).isSameAs(device);
        assertThat(EmulatedExtension.of(cq).orElseThrow().device()).isSameAs(device);

        assertThat(EmulatedExtension.of(foreign(Device.class))).isEmpty();
        assertThat(EmulatedExtension.of(foreign(Context.class))).isEmpty();
        assertThat(EmulatedExtension.of(foreign(Cq.class))).isEmpty();
        assertThat(EmulatedExtension.of((Context) null)).isEmpty();
    }

    @Test
    void theMttsSizeIsTheDevicesConfigurationNotAnAttribute() throws Exception {
        assertThat(jrxe.mttEntries()).isEqualTo(DeviceConfig.DEFAULT_MTT_ENTRIES);
        assertThat(jrxe.config()).isSameAs(device.nic().resources().config());
        EmulatedDevice small = Verbs.emulated().create(DeviceConfig.of("jrxe-ext-small" + System.nanoTime(),
                InetAddress.getByName("127.0.0.3")).withMttEntries(64), NicExecutor.INLINE);
        try (Context c = small.open(); Arena arena = Arena.ofConfined()) {
            assertThat(EmulatedExtension.of(c).orElseThrow().mttEntries()).isEqualTo(64);
            Pd pd = c.allocPd();
            assertThatThrownBy(() -> pd.regMr(arena.allocate(65 * 4096L, 4096), Access.LOCAL_WRITE))
                    .isInstanceOf(VerbsException.class).hasMessageContaining("MTT entries");
        } finally {
            Verbs.emulated().remove(small);
        }
    }

    @Test
    void translateWalksTheMttOfThisNicsMrsAndRefusesAnyOtherMr() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(2 * 4096, 4096);
            Pd pd = ctx.allocPd();
            Mr mr = pd.regMr(memory, Access.LOCAL_WRITE);
            Translation t = jrxe.translate(mr, memory.address() + 4096 + 7);
            assertThat(t.key()).isEqualTo(mr.lkey());
            assertThat(t.kind()).isEqualTo(KeyKind.MR);
            assertThat(t.mttIndex()).isEqualTo(jrxe.translate(mr, memory.address()).mttIndex() + 1);
            assertThat(t.pageOffset()).isEqualTo(7);
            assertThat(t.address()).isEqualTo(memory.address() + 4096 + 7);

            assertThatThrownBy(() -> jrxe.translate(foreign(Mr.class), 0))
                    .isInstanceOf(VerbsException.class)
                    .hasMessageContaining("is not an MR of " + device.name())
                    .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.EINVAL));
            assertThatThrownBy(() -> jrxe.translate(mr, memory.address() + 2 * 4096))
                    .isInstanceOf(VerbsException.class).hasMessageContaining("is outside key");
            mr.close();
            pd.close();
        }
    }

    @Test
    void aPollerSleepsOnThisNicsCqsOnly() throws Exception {
        Cq cq = ctx.createCq(4, null);
        long start = System.nanoTime();
        assertThat(jrxe.sleepUntilCompletion(cq, 2_000_000)).as("a NIC thread's CQ wakes its sleeper").isTrue();
        assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
        assertThatThrownBy(() -> jrxe.sleepUntilCompletion(foreign(Cq.class), 1000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a CQ of " + device.name());
        cq.close();
    }

    @Test
    void aRemoteErrorsVendorErrNamesTheNakCode() {
        assertThat(jrxe.vendorErrMeaning(wc(WcStatus.REM_ACCESS_ERR, 2))).isEqualTo("NAK remote access error; the responder's async event names the rule");
        assertThat(jrxe.vendorErrMeaning(wc(WcStatus.REM_OP_ERR, 31))).isEqualTo("NAK code 31 (reserved)");
    }

    @Test
    void aLocalErrorsVendorErrNamesTheKeyRule() {
        assertThat(jrxe.vendorErrMeaning(wc(WcStatus.LOC_PROT_ERR, AccessError.WRONG_PD.code())))
                .isEqualTo(AccessError.WRONG_PD.description());
        assertThat(jrxe.vendorErrMeaning(wc(WcStatus.BAD_RESP_ERR, 0x10))).isEqualTo("unexpected response 0x10");
    }

    @Test
    void aCompletionPrintsItsVendorErrAsANumberAndTheExtensionAddsTheMeaning() {
        assertThat(wc(WcStatus.REM_ACCESS_ERR, 2).toString()).endsWith(" vendor_err=2");
        assertThat(jrxe.describe(wc(WcStatus.REM_ACCESS_ERR, 2))).endsWith(" vendor_err=2 (NAK remote access error; the responder's async event names the rule)");
        assertThat(jrxe.describe(wc(WcStatus.SUCCESS, 0))).doesNotContain("vendor_err").isEqualTo(wc(WcStatus.SUCCESS, 0).toString());
        assertThat(jrxe.vendorErrMeaning(wc(WcStatus.SUCCESS, 0))).isEmpty();
    }
}
