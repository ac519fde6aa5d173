package io.jrxe.tools.regmr;

import io.jrxe.rnic.device.Counter;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;
import io.jrxe.wire.quantity.ByteSize;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Times ibv_reg_mr and ibv_dereg_mr on one device, size by size. One page-aligned buffer of the largest size is
 * allocated and every page of it written first, so that the kernel has backed them before any timing (a first touch
 * costs a page fault per page: the operating system's cost, not the registration's); each size registers the
 * buffer's first bytes.
 *
 * <p>A JVM's first registrations run interpreted, then compiled by C1, then by C2, and a size measured early would
 * pay for that where a later one does not (16 MiB measured before 256 MiB came out slower than it). So the timings
 * start with untimed passes over every size, repeated until the passes take as long as each other, and each size then
 * repeats rounds of timings until their medians agree ({@link StableRounds}); only the last round is reported.
 */
final class RegistrationTimer {
    static final long PAGE = 4096;
    /** Sizes from here on print a progress line: registering them takes long enough for a user to wonder. */
    private static final long PROGRESS_FROM = 64L << 20;
    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
    /** The pages a warm-up pass covers with each size: 16 MiB of them. */
    static final long WARM_UP_PAGES = 4096;
    /** The most registrations of one size in a warm-up pass. */
    static final long WARM_UP_CALLS = 1000;

    private final int repeat;
    private final StableRounds rounds;
    private final PrintWriter progress;
    private final boolean onDemand;
    private final int access;

    /**
     * @param repeat   the timings per round
     * @param onDemand register ON_DEMAND (--odp), and time each size's first touch after the rounds
     */
    RegistrationTimer(int repeat, StableRounds rounds, PrintWriter progress, boolean onDemand) {
        this.repeat = repeat;
        this.rounds = rounds;
        this.progress = progress;
        this.onDemand = onDemand;
        this.access = ACCESS | (onDemand ? Access.ON_DEMAND : 0);
    }

    DeviceCosts measure(String device, Context context, List<Long> sizes) {
        List<SizeCost> rows = new ArrayList<>();
        long largest = sizes.stream().mapToLong(Long::longValue).max().orElseThrow();
        // Shared: a jrxe NIC registers on its own thread, which must be able to read the buffer.
        try (Pd pd = context.allocPd(); Arena arena = Arena.ofShared()) {
            MemorySegment buffer = allocate(arena, largest);
            touchEveryPage(buffer);
            if (largest >= PROGRESS_FROM) {
                progress.printf("regmr-cost: %s, warming up over every size ...%n", device);
                progress.flush();
            }
            StableRounds.Settled warm = rounds.run(() -> pass(pd, buffer, sizes, access));
            List<FirstTouch> touches = new ArrayList<>();
            String touchRefused = null;
            for (long size : sizes) {
                if (size >= PROGRESS_FROM) {
                    progress.printf("regmr-cost: %s, %s, rounds of %d ...%n", device, ByteSize.unit(size), repeat);
                    progress.flush();
                }
                MemorySegment slice = buffer.asSlice(0, size);
                StableRounds.Settled s = rounds.run(() -> round(pd, slice));
                rows.add(new SizeCost(size, s.main(), s.beside(), s.rounds(), s.settled()));
                if (onDemand && touchRefused == null) {
                    try {
                        touches.add(firstTouch(context, pd, slice));
                    } catch (VerbsException e) {
                        touchRefused = e.getMessage();
                        touches.clear();
                    }
                }
            }
            return new DeviceCosts(device, context.device().provider(), warm.rounds(), warm.settled(), rows, touches,
                    touchRefused);
        } catch (VerbsException e) {
            throw new UserError(device + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Untimed registrations of every size, each as often as covers {@link #WARM_UP_PAGES} pages (once from 16 MiB on,
     * at most {@link #WARM_UP_CALLS} times): the small sizes' fixed path, the call to the device and back, then gets
     * about as many runs as the large sizes' page loop gets pages. What the pass took in all is its one timing.
     */
    static StableRounds.Timings pass(Pd pd, MemorySegment buffer, List<Long> sizes, int access) throws VerbsException {
        long start = System.nanoTime();
        for (long size : sizes) {
            MemorySegment slice = buffer.asSlice(0, size);
            for (long i = warmUpCalls(size); i > 0; i--) {
                pd.regMr(slice, access).close();
            }
        }
        long[] total = {System.nanoTime() - start};
        return new StableRounds.Timings(total, total);
    }

    /** How many times a warm-up pass registers a buffer of {@code size} bytes. */
    static long warmUpCalls(long size) {
        return Math.clamp(WARM_UP_PAGES / Math.ceilDiv(size, PAGE), 1, WARM_UP_CALLS);
    }

    private StableRounds.Timings round(Pd pd, MemorySegment buffer) throws VerbsException {
        long[] reg = new long[repeat];
        long[] dereg = new long[repeat];
        for (int i = 0; i < repeat; i++) {
            long start = System.nanoTime();
            Mr mr = pd.regMr(buffer, access);
            long registered = System.nanoTime();
            mr.close();
            long end = System.nanoTime();
            reg[i] = registered - start;
            dereg[i] = end - registered;
        }
        return new StableRounds.Timings(reg, dereg);
    }

    /**
     * The first access to {@link #repeat} fresh ON_DEMAND registrations of {@code buffer}: each prefetched whole for
     * writing and waited for (ibv_advise_mr PREFETCH_WRITE, FLUSH), timed; the pages it brought in and their modelled
     * cost are the device's counters' moves over the last one.
     */
    private FirstTouch firstTouch(Context context, Pd pd, MemorySegment buffer) throws VerbsException {
        long[] nanos = new long[repeat];
        long pagesIn = 0;
        long modelled = 0;
        for (int i = 0; i < repeat; i++) {
            try (Mr mr = pd.regMr(buffer, access)) {
                Map<String, Long> before = context.counters();
                long start = System.nanoTime();
                mr.advisePrefetch(buffer.address(), buffer.byteSize(), true, true);
                nanos[i] = System.nanoTime() - start;
                Map<String, Long> after = context.counters();
                pagesIn = moved(before, after, Counter.ODP_PREFETCHED_PAGES);
                modelled = moved(before, after, Counter.ODP_FAULT_NANOS);
            }
        }
        return new FirstTouch(buffer.byteSize(), Spread.ofNanos(nanos), pagesIn, modelled);
    }

    /** How far a counter moved, or -1 where the device has no such counter (a kernel device). */
    private static long moved(Map<String, Long> before, Map<String, Long> after, Counter counter) {
        Long now = after.get(counter.label());
        return now == null ? -1 : now - before.getOrDefault(counter.label(), 0L);
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
