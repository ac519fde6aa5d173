package io.jrxe.wire.port.shm;

import io.jrxe.wire.port.PeerAddress;

import java.nio.ByteBuffer;

/**
 * The senders a shared-memory port has heard from, found by the 16-byte GID each record carries without making an
 * object per packet: a sender is a peer device, and a port has few. Past {@link #SLOTS} senders the oldest slot is
 * reused. The port's receiving thread only.
 */
final class KnownSources {
    static final int SLOTS = 64;
    private final long[] high = new long[SLOTS];
    private final long[] low = new long[SLOTS];
    private final PeerAddress[] addresses = new PeerAddress[SLOTS];
    private int used;
    private int nextReused;
    private int last = -1;

    /** The sender whose GID starts at {@code at} in {@code buffer}. */
    PeerAddress at(ByteBuffer buffer, int at) {
        long h = buffer.getLong(at);
        long l = buffer.getLong(at + 8);
        int i = last;
        if (i >= 0 && high[i] == h && low[i] == l) {
            return addresses[i];
        }
        for (i = 0; i < used; i++) {
            if (high[i] == h && low[i] == l) {
                last = i;
                return addresses[i];
            }
        }
        byte[] gid = new byte[16];
        buffer.get(at, gid);
        PeerAddress address = PeerAddress.ofGid(gid);
        if (used < SLOTS) {
            i = used++;
        } else {
            i = nextReused;
            nextReused = (nextReused + 1) % SLOTS;
        }
        high[i] = h;
        low[i] = l;
        addresses[i] = address;
        last = i;
        return address;
    }
}
