package io.jrxe.wire.port.fault;

import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PeerAddress;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * The packets a fault holds back (delay, reorder), each in a slot of a bounded pool until its timer runs it. A
 * slot is the timer's task itself and keeps its buffer for the next packet, so a hold allocates nothing once the
 * pool has grown to what the traffic needs; past {@link #capacity} a packet is not held ({@link #take} says null).
 * The NIC thread's only.
 */
final class HeldPackets {
    /** One held packet, and the task that lets it go. */
    static final class Held implements Runnable {
        private final HeldPackets pool;
        final ByteBuffer bytes;
        int length;
        boolean receive;
        PeerAddress to;
        int sourcePort;
        boolean duplicate;
        int corruptBit;
        String comment;
        /** What the receiving port knew of a held received packet. */
        final PacketInfo info = new PacketInfo();

        private Held(HeldPackets pool, int size) {
            this.pool = pool;
            this.bytes = ByteBuffer.allocate(size);
        }

        /** Copies packet[offset, offset+length) in. */
        void hold(ByteBuffer packet, int offset, int length) {
            this.length = length;
            bytes.put(0, packet, offset, length);
        }

        @Override
        public void run() {
            try {
                pool.release.accept(this);
            } finally {
                to = null;
                comment = null;
                info.source = null;
                info.destination = null;
                pool.free[pool.freeCount++] = this;
            }
        }
    }

    private final int capacity;
    private final int size;
    private final Consumer<Held> release;
    private final Held[] free;
    private int freeCount;
    private int made;

    HeldPackets(int capacity, int packetBytes, Consumer<Held> release) {
        this.capacity = capacity;
        this.size = packetBytes;
        this.release = release;
        this.free = new Held[capacity];
    }

    /** A free slot, or null when {@link #capacity} packets are held already. */
    Held take() {
        if (freeCount > 0) {
            Held h = free[--freeCount];
            free[freeCount] = null;
            return h;
        }
        if (made < capacity) {
            made++;
            return new Held(this, size);
        }
        return null;
    }

    int capacity() {
        return capacity;
    }

    /** How many packets are held now. */
    int holding() {
        return made - freeCount;
    }
}
