package io.jrxe.it.interop;

import org.junit.jupiter.api.BeforeAll;

/**
 * {@link KernelRxePerftestRdmaCmIpv6} against Debian 13's perftest 25.01 on kernel 6.12. CI runs it against the
 * newest release only (SidPerftestRdmaCmTest), for time; it runs here with -Djrxe.lab.slow=true.
 */
@OnLabRelease(LabRelease.TRIXIE)
class TrixiePerftestRdmaCmTest extends KernelRxePerftestRdmaCmIpv6 {
    @BeforeAll
    static void onlyWhenAsked() {
        SlowLabTests.skipUnlessAsked("TrixiePerftestRdmaCmTest: "
                + "CI pairs perftest -R over IPv6 with 7.2 (SidPerftestRdmaCmTest)");
    }
}
