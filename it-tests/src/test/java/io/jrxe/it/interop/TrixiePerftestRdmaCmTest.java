package io.jrxe.it.interop;

/** {@link KernelRxePerftestRdmaCmIpv6} against Debian 13's perftest 25.01 on kernel 6.12. */
@OnLabRelease(LabRelease.TRIXIE)
class TrixiePerftestRdmaCmTest extends KernelRxePerftestRdmaCmIpv6 {
}
