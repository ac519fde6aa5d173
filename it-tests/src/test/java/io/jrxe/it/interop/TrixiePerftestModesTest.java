package io.jrxe.it.interop;

import org.junit.jupiter.api.BeforeAll;

/**
 * The perftest modes of {@link KernelRxePerftestModesTest} paired with Debian 13's perftest 25.01 on kernel
 * 6.12's rxe0, both ways. CI runs it against the newest release only (SidPerftestModesTest), for time; it runs
 * here with -Djrxe.lab.slow=true.
 */
@OnLabRelease(LabRelease.TRIXIE)
class TrixiePerftestModesTest extends KernelRxePerftestModesTest {
    @BeforeAll
    static void onlyWhenAsked() {
        SlowLabTests.skipUnlessAsked("TrixiePerftestModesTest: "
                + "CI pairs perftest's modes with 6.1 (KernelRxePerftestModesTest) and 7.2 (SidPerftestModesTest)");
    }
}
