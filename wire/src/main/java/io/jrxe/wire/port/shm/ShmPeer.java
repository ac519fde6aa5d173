package io.jrxe.wire.port.shm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A shared-memory port's way to one peer device: the peer's ring, mapped as a producer, or the time to look for it
 * again. A peer that closed its ring, or whose process is gone, is let go and looked for again (a peer restarted on
 * the same address has a new ring by the same name). The sending thread only.
 */
final class ShmPeer {
    /** How often a missing ring is looked for: a system call, so not per packet. */
    static final long OPEN_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** How often the owner of a mapped ring is checked for life (a lock tried, one system call). */
    static final long CHECK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Path file;
    private ShmRing ring;
    /** The ring's memory in network byte order, as the engines read packets (made once per mapping). */
    private ByteBuffer buffer;
    private long nextOpen;
    private long nextCheck;

    ShmPeer(Path file, long now) {
        this.file = file;
        this.nextOpen = now;
    }

    /** The peer's ring to write into now, or null when it has none (the packet is lost, as to an absent host). */
    ShmRing ring(long now) {
        ShmRing r = ring;
        if (r != null) {
            if (!r.ownerClosed() && (now - nextCheck < 0 || stillOwned(r, now))) {
                return r;
            }
            letGo(now);
        }
        if (now - nextOpen < 0) {
            return null;
        }
        nextOpen = now + OPEN_EVERY_NANOS;
        try {
            ring = ShmRing.open(file);
            buffer = ShmPacketRecord.view(ring);
            nextCheck = now + CHECK_EVERY_NANOS;
        } catch (IOException e) {
            return null; // not there yet, or being replaced: looked for again after OPEN_EVERY_NANOS
        }
        return ring;
    }

    /** The mapped ring's memory, big-endian: valid after {@link #ring} returned that ring. */
    ByteBuffer buffer() {
        return buffer;
    }

    private boolean stillOwned(ShmRing r, long now) {
        nextCheck = now + CHECK_EVERY_NANOS;
        return r.ownerAlive();
    }

    /** Unmaps the ring; the next packet looks for the file again at once. */
    private void letGo(long now) {
        ring.close();
        ring = null;
        buffer = null;
        nextOpen = now;
    }

    void close() {
        if (ring != null) {
            ring.close();
            ring = null;
        }
    }
}
