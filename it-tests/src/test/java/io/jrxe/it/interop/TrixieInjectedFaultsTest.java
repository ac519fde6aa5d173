package io.jrxe.it.interop;

import org.junit.jupiter.api.BeforeAll;

/**
 * {@link KernelRxeInjectedFaults} against Debian 13's kernel rxe (6.12), rdma-core 56.1 and perftest 25.01. CI
 * runs it against the newest release only (SidInjectedFaultsTest), for time; it runs here with
 * -Djrxe.lab.slow=true.
 */
@OnLabRelease(LabRelease.TRIXIE)
class TrixieInjectedFaultsTest extends KernelRxeInjectedFaults {
    @BeforeAll
    static void onlyWhenAsked() {
        SlowLabTests.skipUnlessAsked("TrixieInjectedFaultsTest: "
                + "CI injects these faults against 6.1 (KernelRxeInjectedFaultsTest) and 7.2 (SidInjectedFaultsTest)");
    }
}
