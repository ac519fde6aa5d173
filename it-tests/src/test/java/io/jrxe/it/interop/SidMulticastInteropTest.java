package io.jrxe.it.interop;

/** {@link KernelRxeMulticast} against Debian unstable's rxe0 (Linux 7.2): rxe 7.2 attaches, joins and stays busy as 6.1 does. */
@OnLabRelease(LabRelease.SID)
class SidMulticastInteropTest extends KernelRxeMulticast {
}
