package io.jrxe.it.interop;

/** {@link KernelRxePlacement} against Debian unstable's rxe0 (Linux 7.2, rdma-core 65). */
@OnLabRelease(LabRelease.SID)
class SidPlacementInteropTest extends KernelRxePlacement {
}
