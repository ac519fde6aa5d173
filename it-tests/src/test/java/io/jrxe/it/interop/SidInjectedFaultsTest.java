package io.jrxe.it.interop;

/** {@link KernelRxeInjectedFaults} against Debian unstable's kernel rxe (7.2), rdma-core 65 and perftest 25.01. */
@OnLabRelease(LabRelease.SID)
class SidInjectedFaultsTest extends KernelRxeInjectedFaults {
}
