package io.jrxe.it.interop;

/**
 * The perftest modes of {@link KernelRxePerftestModesTest} (UD, UC, SRQ, bidirectional, post lists with
 * --out_json) paired with Debian unstable's perftest 25.01 on kernel 7.2's rxe0, both ways.
 */
@OnLabRelease(LabRelease.SID)
class SidPerftestModesTest extends KernelRxePerftestModesTest {
}
