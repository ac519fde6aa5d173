package io.jrxe.verbs.udp;

import io.jrxe.verbs.Device;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.verbs.facade.Verbs;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A program picks a device's address and who runs its engines with verbs-api and facade types only
 * ({@code createUdp(name, address, progress)}), and every refusal is a VerbsException with errno.
 */
class UdpDeviceInVerbsTermsTest {
    @Test
    void theProgressModeIsTheOneAskedFor() throws Exception {
        try (EmulatedDevice invoked = Verbs.emulated().createUdp("terms-1", InetAddress.getByName("127.0.4.31"), Progress.INVOKER);
             EmulatedDevice threaded = Verbs.emulated().createUdp("terms-2", InetAddress.getByName("127.0.4.32"), Progress.NIC_THREAD);
             EmulatedDevice byDefault = Verbs.emulated().createUdp("terms-3", InetAddress.getByName("127.0.4.33"))) {
            assertThat(invoked.progressMode()).isEqualTo(Progress.INVOKER);
            assertThat(threaded.progressMode()).isEqualTo(Progress.NIC_THREAD);
            assertThat(byDefault.progressMode()).isEqualTo(Progress.NIC_THREAD);
            assertThat(Verbs.deviceList()).extracting(Device::name).contains("terms-1", "terms-2", "terms-3");
        }
        assertThat(Verbs.deviceList()).extracting(Device::name).doesNotContain("terms-1", "terms-2", "terms-3");
    }

    @Test
    void anAddressInUseIsEaddrinuse() throws Exception {
        InetAddress address = InetAddress.getByName("127.0.4.34");
        try (EmulatedDevice first = Verbs.emulated().createUdp("terms-4", address, Progress.INVOKER)) {
            assertThat(first.name()).isEqualTo("terms-4");
            assertThatThrownBy(() -> Verbs.emulated().createUdp("terms-5", address, Progress.INVOKER))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EADDRINUSE))
                    .hasMessage("another RoCE device, kernel rxe or jrxe, already uses 127.0.4.34:4791");
        }
    }

    @Test
    void anAddressOfAnotherMachineIsEaddrinuse() {
        assertThatThrownBy(() -> Verbs.emulated().createUdp("terms-6", InetAddress.getByName("192.0.2.9"), Progress.INVOKER))
                .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EADDRINUSE))
                .hasMessage("192.0.2.9 is not an address of this machine (see `ip addr`)");
    }

    @Test
    void aTakenOrBlankNameIsEinval() throws Exception {
        try (EmulatedDevice first = Verbs.emulated().createUdp("terms-7", InetAddress.getByName("127.0.4.35"), Progress.INVOKER)) {
            assertThat(first.progressMode()).isEqualTo(Progress.INVOKER);
            assertThatThrownBy(() -> Verbs.emulated().createUdp("terms-7", InetAddress.getByName("127.0.4.36"), Progress.INVOKER))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                    .hasMessage("a device named terms-7 exists already");
        }
        assertThatThrownBy(() -> Verbs.emulated().createUdp(" ", InetAddress.getByName("127.0.4.37"), Progress.INVOKER))
                .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                .hasMessage("a device needs a name");
    }

    @Test
    void aMissingAddressOrProgressModeIsEinval() {
        assertThatThrownBy(() -> Verbs.emulated().createUdp("terms-8", null, Progress.INVOKER))
                .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                .hasMessage("device terms-8 needs an address to bind");
        assertThatThrownBy(() -> Verbs.emulated().createUdp("terms-8", null))
                .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                .hasMessage("device terms-8 needs an address to bind");
        assertThatThrownBy(() -> Verbs.emulated().createUdp("terms-8", InetAddress.getByName("127.0.4.38"), null))
                .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                .hasMessage("device terms-8 needs a progress mode: NIC_THREAD or INVOKER");
    }
}
