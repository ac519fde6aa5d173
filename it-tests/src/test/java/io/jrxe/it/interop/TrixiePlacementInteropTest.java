package io.jrxe.it.interop;

import org.junit.jupiter.api.BeforeAll;

/**
 * {@link KernelRxePlacement} against Debian 13's rxe0 (Linux 6.12, rdma-core 56.1). CI runs it against the
 * newest release only (SidPlacementInteropTest), for time; it runs here with -Djrxe.lab.slow=true.
 */
@OnLabRelease(LabRelease.TRIXIE)
class TrixiePlacementInteropTest extends KernelRxePlacement {
    @BeforeAll
    static void onlyWhenAsked() {
        SlowLabTests.skipUnlessAsked("TrixiePlacementInteropTest: "
                + "CI runs the placement pairings against 7.2 (SidPlacementInteropTest)");
    }
}
