package io.jrxe.it.interop;

/** {@link KernelRxePerftestRdmaCmIpv6} against Debian unstable's perftest 25.01 on kernel 7.2. */
@OnLabRelease(LabRelease.SID)
class SidPerftestRdmaCmTest extends KernelRxePerftestRdmaCmIpv6 {
}
