package io.jrxe.it.interop;

/** {@link KernelRxeMckeyTest}'s multicast pairings with rdmacm-utils 65's mckey on kernel 7.2. */
@OnLabRelease(LabRelease.SID)
class SidMckeyTest extends KernelRxeMckeyTest {
}
