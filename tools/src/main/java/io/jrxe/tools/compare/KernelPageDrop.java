package io.jrxe.tools.compare;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Takes whole pages of a program's memory away from a kernel device's ON_DEMAND MR the way the kernel does it: the
 * pages' mappings are dropped (madvise MADV_DONTNEED), the MMU notifier tells the device, and its next access faults
 * them in again, as fresh zero pages. No verb asks a kernel device to invalidate, so this is the only way a program
 * causes one. Only for page-aligned memory the caller owns whole: the bytes it held are gone afterwards.
 */
final class KernelPageDrop {
    /** MADV_DONTNEED, the same on every Linux architecture. */
    private static final int MADV_DONTNEED = 4;
    private static final long PAGE = 4096;

    private KernelPageDrop() {
    }

    static void drop(MemorySegment pages) throws VerbsException {
        if (pages.address() % PAGE != 0 || pages.byteSize() % PAGE != 0) {
            throw new IllegalArgumentException("whole pages only: " + pages);
        }
        int rc;
        try {
            rc = (int) Holder.MADVISE.invokeExact(pages, pages.byteSize(), MADV_DONTNEED);
        } catch (Throwable t) {
            throw new VerbsException(Errno.EOPNOTSUPP, "madvise(MADV_DONTNEED) could not be called: " + t);
        }
        if (rc != 0) {
            throw new VerbsException(Errno.EINVAL, "madvise(MADV_DONTNEED) on " + pages.byteSize() + " bytes failed");
        }
    }

    /** Looked up at the first drop, so that a machine without madvise fails only the step that needs it. */
    private static final class Holder {
        static final MethodHandle MADVISE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    }
}
