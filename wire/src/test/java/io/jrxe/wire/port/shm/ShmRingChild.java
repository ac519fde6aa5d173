package io.jrxe.wire.port.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The other process of {@link ShmRingTest}: {@code own <file> <capacity>} creates a ring, prints its owner
 * incarnation and holds it until killed; {@code produce <file> <count>} opens a ring, writes count records
 * (see {@link #payloadLength} and {@link #writePayload}) and prints whether the owner is alive, exiting 0, or 2
 * when the ring stayed full too long.
 */
public final class ShmRingChild {
    static final int RECORD_TYPE = 7;

    private ShmRingChild() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Path file = Path.of(args[1]);
        switch (args[0]) {
            case "own" -> {
                ShmRing ring = ShmRing.create(file, Integer.parseInt(args[2]));
                System.out.println(ring.owner());
                System.out.flush();
                while (System.in.read() >= 0) {
                    // held until the test kills this process: a ring whose owner died without closing it
                }
            }
            case "produce" -> System.exit(produce(file, Integer.parseInt(args[2])));
            default -> throw new IllegalArgumentException("own <file> <capacity> | produce <file> <count>");
        }
    }

    private static int produce(Path file, int count) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (ShmRing ring = ShmRing.open(file)) {
            ByteBuffer buffer = ring.buffer();
            for (int sequence = 0; sequence < count; sequence++) {
                int length = payloadLength(sequence);
                long offset;
                while ((offset = ring.claim(RECORD_TYPE, length)) < 0) {
                    if (System.nanoTime() > deadline) {
                        return 2;
                    }
                    Thread.yield();
                }
                writePayload(buffer, (int) offset, length, sequence);
                if (!ring.commit(offset)) {
                    return 3;
                }
            }
            System.out.println(ring.ownerAlive() ? "owner alive" : "owner gone");
        }
        return 0;
    }

    /** The payload length of the record with this sequence number: 4 to 299 bytes. */
    static int payloadLength(int sequence) {
        return 4 + (sequence * 37) % 296;
    }

    /** Writes bytes that depend on the seed and on their place, so that any misplaced or stale byte shows. */
    static void writePayload(ByteBuffer buffer, int offset, int length, long seed) {
        for (int i = 0; i < length; i++) {
            buffer.put(offset + i, patternByte(seed, i));
        }
    }

    /** Whether the payload holds exactly what {@link #writePayload} wrote with this seed. */
    static boolean payloadMatches(ByteBuffer buffer, int offset, int length, long seed) {
        for (int i = 0; i < length; i++) {
            if (buffer.get(offset + i) != patternByte(seed, i)) {
                return false;
            }
        }
        return true;
    }

    private static byte patternByte(long seed, int index) {
        long mixed = (seed + 1) * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L;
        return (byte) (mixed ^ (mixed >>> 29) ^ (mixed >>> 47));
    }
}
