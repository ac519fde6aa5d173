package io.jrxe.it.interop;

/** {@link KernelRxeUcSrqPingpongTest}'s UC and SRQ pingpongs with rdma-core 65 on kernel 7.2. */
@OnLabRelease(LabRelease.SID)
class SidUcSrqPingpongTest extends KernelRxeUcSrqPingpongTest {
}
