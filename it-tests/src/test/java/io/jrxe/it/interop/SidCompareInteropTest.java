package io.jrxe.it.interop;

/** {@link NativeCompareInteropTest}'s `jrxe compare -d rxe0 --scenario demo` on Debian unstable's rxe0 (Linux 7.2). */
@OnLabRelease(LabRelease.SID)
class SidCompareInteropTest extends NativeCompareInteropTest {
}
