package io.jrxe.it.interop;

/** {@link KernelRxeInjectedFaults} against Debian 12's kernel rxe (6.1), rdma-core 44 and perftest 4.5. */
class KernelRxeInjectedFaultsTest extends KernelRxeInjectedFaults {
}
