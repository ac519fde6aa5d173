package io.jrxe.it.interop;

import org.junit.jupiter.api.BeforeAll;

/**
 * {@link KernelRxeMulticast} against Debian 12's rxe0 (Linux 6.1). CI runs multicast against the newest release only
 * (SidMulticastInteropTest), for time; it runs here with -Djrxe.lab.slow=true.
 */
class NativeMulticastInteropTest extends KernelRxeMulticast {
    @BeforeAll
    static void onlyWhenAsked() {
        SlowLabTests.skipUnlessAsked("NativeMulticastInteropTest: CI pairs multicast with 7.2 (SidMulticastInteropTest)");
    }
}
