package io.jrxe.tools.common;

import io.jrxe.verbs.facade.Verbs;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command that opens a device, told -d rxe0 on a machine whose kernel has no such device: one line that says
 * why (the native provider's reason), exit status 2, before anything is made or any peer is waited for.
 */
class NoKernelDeviceTest {
    @Test
    void everyDeviceCommandSaysWhyThereIsNoRxe0() {
        Assumptions.assumeTrue(Verbs.nativeProvider().devices().stream().noneMatch(d -> d.name().equals("rxe0")),
                "this machine has rxe0");
        String why = Verbs.nativeProvider().whyNoDevices().orElse("the kernel's are ");
        for (String command : new String[] {"devinfo", "pingpong", "ud-pingpong", "write-bw", "write-lat", "read-bw",
            "read-lat", "send-bw", "send-lat", "atomic-bw", "atomic-lat"}) {
            InProcess r = InProcess.run(command, "-d", "rxe0", "--accept-timeout", "1");
            assertThat(r.status()).as(command + ": " + r).isEqualTo(2);
            assertThat(r.out()).as(command).doesNotContain("local address");
            assertThat(r.err().lines().toList()).as(command).containsExactly("jrxe " + command + ": no RDMA device named rxe0: "
                    + why + "; jrxe's own devices are named jrxe0, jrxe1, ... (--provider emulated makes one of any name)");
        }
    }
}
