package io.jrxe.it.interop;

/** {@link KernelRxeInjectedFaults} against Debian 13's kernel rxe (6.12), rdma-core 56.1 and perftest 25.01. */
@OnLabRelease(LabRelease.TRIXIE)
class TrixieInjectedFaultsTest extends KernelRxeInjectedFaults {
}
