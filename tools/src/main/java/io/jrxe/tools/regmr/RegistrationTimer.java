package io.jrxe.tools.regmr;

import io.jrxe.tools.UserError;
import io.jrxe.tools.sizing.ByteSize;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Times ibv_reg_mr and ibv_dereg_mr on one device, size by size. Each size gets one page-aligned buffer whose
 * pages are all written first, so that the kernel has backed them before any timing: a first touch costs a page
 * fault per page, which is the operating system's cost, not the registration's. One untimed registration per size
 * comes before the timed ones, so the first call's class loading and the JIT do not land in the numbers.
 */
final class RegistrationTimer {
    static final long PAGE = 4096;
    /** Sizes from here on print a progress line: registering them takes long enough for a user to wonder. */
    private static final long PROGRESS_FROM = 64L << 20;
    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;

    private final int repeat;
    private final PrintWriter progress;

    RegistrationTimer(int repeat, PrintWriter progress) {
        this.repeat = repeat;
        this.progress = progress;
    }

    DeviceCosts measure(String device, Context context, List<Long> sizes) {
        List<SizeCost> rows = new ArrayList<>();
        try (Pd pd = context.allocPd()) {
            for (long size : sizes) {
                if (size >= PROGRESS_FROM) {
                    progress.printf("regmr-cost: %s, %s x %d ...%n", device, ByteSize.unit(size), repeat);
                    progress.flush();
                }
                rows.add(measure(pd, size));
            }
        } catch (VerbsException e) {
            throw new UserError(device + ": " + e.getMessage(), e);
        }
        return new DeviceCosts(device, context.device().provider(), rows);
    }

    private SizeCost measure(Pd pd, long size) throws VerbsException {
        // Shared: a jrxe NIC registers on its own thread, which must be able to read the buffer.
        try (Arena arena = Arena.ofShared()) {
            MemorySegment buffer = allocate(arena, size);
            touchEveryPage(buffer);
            pd.regMr(buffer, ACCESS).close();
            long[] reg = new long[repeat];
            long[] dereg = new long[repeat];
            for (int i = 0; i < repeat; i++) {
                long start = System.nanoTime();
                Mr mr = pd.regMr(buffer, ACCESS);
                long registered = System.nanoTime();
                mr.close();
                long end = System.nanoTime();
                reg[i] = registered - start;
                dereg[i] = end - registered;
            }
            return new SizeCost(size, Spread.ofNanos(reg), Spread.ofNanos(dereg));
        }
    }

    private static MemorySegment allocate(Arena arena, long size) {
        try {
            return arena.allocate(size, PAGE);
        } catch (OutOfMemoryError e) {
            throw new UserError("cannot allocate a " + ByteSize.unit(size) + " buffer: " + e.getMessage()
                    + " (give smaller --sizes)", e);
        }
    }

    /** Writes one byte per page, so that every page is backed before the timings. */
    private static void touchEveryPage(MemorySegment buffer) {
        for (long offset = 0; offset < buffer.byteSize(); offset += PAGE) {
            buffer.set(ValueLayout.JAVA_BYTE, offset, (byte) 1);
        }
    }
}
