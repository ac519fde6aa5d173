package io.jrxe.it.interop;

/**
 * The core pairings of {@link KernelRxeCorePairings} against Debian 13's kernel rxe (6.12),
 * rdma-core 56.1 and perftest 25.01, in a trixie lab beside the bookworm one.
 */
@OnLabRelease(LabRelease.TRIXIE)
class TrixieCorePairingsTest extends KernelRxeCorePairings {
}
