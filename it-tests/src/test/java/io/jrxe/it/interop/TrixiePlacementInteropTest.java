package io.jrxe.it.interop;

/** {@link KernelRxePlacement} against Debian 13's rxe0 (Linux 6.12, rdma-core 56.1). */
@OnLabRelease(LabRelease.TRIXIE)
class TrixiePlacementInteropTest extends KernelRxePlacement {
}
