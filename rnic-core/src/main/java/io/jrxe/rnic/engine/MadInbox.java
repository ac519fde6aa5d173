package io.jrxe.rnic.engine;

import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.time.NicTime;

import java.nio.ByteBuffer;

/**
 * The hand-off between QP1 and a management agent: QP1 copies each MAD it accepted into the next
 * slot and schedules the agent's task (once however many MADs arrive before it runs); the agent
 * drains the inbox in its own task. QP1 never calls the agent, so a MAD's handling (a CM answer, a
 * QP moved) never runs inside the receive path. A ring of preallocated 256-byte slots; an inbox
 * that is full refuses the MAD (QP1 counts it). NIC thread only.
 */
public final class MadInbox {
    /**
     * Handles one MAD: its 256 bytes from index 0 of {@code mad}, valid until the call returns, from the QP
     * {@code sourceQp} (the DETH's: where a response goes) of the node at {@code from}.
     */
    @FunctionalInterface
    public interface Handler {
        void mad(ByteBuffer mad, PeerAddress from, int pkey, int sourceQp);
    }

    private final ByteBuffer[] slots;
    private final PeerAddress[] senders;
    private final int[] pkeys;
    private final int[] sourceQps;
    private final NicTime time;
    private final Runnable drain;
    private int head;
    private int size;
    private boolean scheduled;

    public MadInbox(int capacity, NicTime time, Handler handler) {
        slots = new ByteBuffer[capacity];
        senders = new PeerAddress[capacity];
        pkeys = new int[capacity];
        sourceQps = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
        }
        this.time = time;
        this.drain = () -> drain(handler);
    }

    /** Copies the MAD at mad[offset, offset + 256) in and schedules the agent; false when the inbox is full. */
    boolean offer(ByteBuffer mad, int offset, PeerAddress from, int pkey, int sourceQp) {
        if (size == slots.length) {
            return false;
        }
        int i = (head + size) % slots.length;
        slots[i].put(0, mad, offset, MadHeaderFlyweight.MAD_LENGTH);
        senders[i] = from;
        pkeys[i] = pkey;
        sourceQps[i] = sourceQp;
        size++;
        if (!scheduled) {
            scheduled = true;
            time.execute(drain);
        }
        return true;
    }

    private void drain(Handler handler) {
        scheduled = false;
        while (size > 0) {
            int i = head;
            head = (head + 1) % slots.length;
            size--;
            PeerAddress from = senders[i];
            senders[i] = null;
            handler.mad(slots[i], from, pkeys[i], sourceQps[i]);
        }
    }
}
