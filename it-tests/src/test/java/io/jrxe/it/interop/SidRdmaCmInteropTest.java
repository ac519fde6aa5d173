package io.jrxe.it.interop;

/**
 * The RDMA CM pairings of {@link KernelRdmaCmInteropTest} (rping, ucmatose and udaddy, both ways, IPv4 and IPv6)
 * against Debian unstable's rdmacm-utils 65 on kernel 7.2's CM.
 */
@OnLabRelease(LabRelease.SID)
class SidRdmaCmInteropTest extends KernelRdmaCmInteropTest {
}
