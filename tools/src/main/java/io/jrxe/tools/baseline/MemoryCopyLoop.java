package io.jrxe.tools.baseline;

import java.lang.foreign.Arena;
import java.nio.ByteBuffer;

/**
 * One thread copying 64 KiB blocks from one off-heap buffer to another, with the call the shared-memory wire puts a
 * packet into a ring with ({@link ByteBuffer#put(int, ByteBuffer, int, int)} between direct buffers): the rate
 * memory itself allows, with no network stack. Each unit copies the next block of the source to the same place in
 * the destination, cycling through both. With buffers larger than the caches every block comes from and goes to
 * main memory; with buffers of one block it is the cache-hot rate. The memory is the loop's own, outside the heap
 * and its direct-memory limit, and freed by {@link #close}; used by the thread that made it.
 */
final class MemoryCopyLoop extends TimedLoop implements AutoCloseable {
    static final int BLOCK_BYTES = 64 * 1024;
    /** What every byte of the source holds. */
    static final byte SOURCE_BYTE = 1;

    private final Arena arena = Arena.ofConfined();
    private final ByteBuffer from;
    private final ByteBuffer to;
    private final int workingSet;
    private int at;

    /** @param workingSet the bytes of each of the two buffers, a multiple of {@link #BLOCK_BYTES} */
    MemoryCopyLoop(int workingSet) {
        if (workingSet < BLOCK_BYTES || workingSet % BLOCK_BYTES != 0) {
            throw new IllegalArgumentException("working set " + workingSet + ": must be a multiple of " + BLOCK_BYTES);
        }
        this.workingSet = workingSet;
        // allocate zeroes the memory, so the timed copies meet no first-touch page faults; the source is all ones,
        // so that each unit adds 1 to the sink when its copy has arrived
        from = arena.allocate(workingSet, 64).fill(SOURCE_BYTE).asByteBuffer();
        to = arena.allocate(workingSet, 64).asByteBuffer();
    }

    @Override
    void repeat(int units) {
        long s = sink;
        int a = at;
        for (int i = 0; i < units; i++) {
            to.put(a, from, a, BLOCK_BYTES);
            s += to.get(a + (i & (BLOCK_BYTES - 1)));
            a += BLOCK_BYTES;
            if (a == workingSet) {
                a = 0;
            }
        }
        at = a;
        sink = s;
    }

    /** Whether every block {@link #run} copied read back as its source, as the sink tells. */
    boolean everyCopyArrived() {
        return sink == done() * SOURCE_BYTE;
    }

    @Override
    int bytesPerUnit() {
        return BLOCK_BYTES;
    }

    @Override
    public void close() {
        arena.close();
    }
}
