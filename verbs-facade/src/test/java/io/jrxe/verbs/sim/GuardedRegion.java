package io.jrxe.verbs.sim;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Memory to register with a guard region before and after it, filled with a pattern no packet
 * carries: a write the NIC lets through past either end of the registration changes a guard, and
 * {@link #firstDamage} finds it.
 */
final class GuardedRegion implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment whole;
    private final MemorySegment pattern;
    private final int guard;
    private final int size;

    GuardedRegion(int guard, int size) {
        this.guard = guard;
        this.size = size;
        whole = arena.allocate(guard + size + guard, 4096);
        pattern = arena.allocate(guard);
        for (int i = 0; i < guard; i++) {
            // Period 251 (a prime) so no power-of-two stride of a runaway copy lines up with it.
            pattern.set(ValueLayout.JAVA_BYTE, i, (byte) (0xA5 ^ i % 251));
        }
        before().copyFrom(pattern);
        after().copyFrom(pattern);
    }

    /** The part to register. */
    MemorySegment inside() {
        return whole.asSlice(guard, size);
    }

    private MemorySegment before() {
        return whole.asSlice(0, guard);
    }

    private MemorySegment after() {
        return whole.asSlice(guard + size, guard);
    }

    /** Where a guard was first changed, as a byte offset from the registered start (negative before it), or null. */
    Long firstDamage() {
        long at = before().mismatch(pattern);
        if (at >= 0) {
            return at - guard;
        }
        at = after().mismatch(pattern);
        return at >= 0 ? size + at : null;
    }

    @Override
    public void close() {
        arena.close();
    }
}
