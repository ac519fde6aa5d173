package io.jrxe.it.interop;

/**
 * The perftest modes of {@link KernelRxePerftestModesTest} (UD, UC, SRQ, bidirectional, post lists with
 * --out_json) paired with Debian 13's perftest 25.01 on kernel 6.12's rxe0, both ways.
 */
@OnLabRelease(LabRelease.TRIXIE)
class TrixiePerftestModesTest extends KernelRxePerftestModesTest {
}
