package io.jrxe.it.interop;

/**
 * {@link KernelRxeBridgeCaptureTest} against Debian 13's kernel rxe (6.12): every packet between
 * jrxe and rxe0 on the trixie lab's bridge, both GID families, has a valid ICRC.
 */
@OnLabRelease(LabRelease.TRIXIE)
class TrixieBridgeCaptureTest extends KernelRxeBridgeCaptureTest {
}
