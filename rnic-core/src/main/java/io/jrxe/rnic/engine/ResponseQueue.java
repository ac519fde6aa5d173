package io.jrxe.rnic.engine;

/**
 * The responses of one QP waiting to be sent, in PSN order: a READ's response goes out a few
 * packets per turn under the device's budget, and every response after it (an ACK, an atomic's
 * result, a NAK) waits behind it, because a requester takes a response beyond an unanswered
 * READ for an implied NAK. A ring of slots, each made the first time it is used, that starts again at its first
 * slot whenever it empties: a QP whose responses are ACKs that go out as they come (WRITEs and SENDs) uses one or two
 * slots however long it lives, and carries no more. NIC thread only.
 */
final class ResponseQueue {
    private final PendingResponse[] slots;
    private int head;
    private int size;

    ResponseQueue(int capacity) {
        slots = new PendingResponse[capacity];
    }

    boolean isEmpty() {
        return size == 0;
    }

    boolean isFull() {
        return size == slots.length;
    }

    PendingResponse head() {
        return size == 0 ? null : slots[head];
    }

    /** The newest entry, or null. */
    PendingResponse tail() {
        return size == 0 ? null : slots[(head + size - 1) % slots.length];
    }

    /** A slot at the tail to fill in; the caller checked {@link #isFull()}. */
    PendingResponse add() {
        int at = (head + size) % slots.length;
        PendingResponse p = slots[at];
        if (p == null) {
            p = slots[at] = new PendingResponse(); // once per slot in the QP's life, not per response
        }
        size++;
        p.entry = null;
        return p;
    }

    void removeHead() {
        slots[head].entry = null;
        head = --size == 0 ? 0 : (head + 1) % slots.length;
    }

    void clear() {
        while (size > 0) {
            removeHead();
        }
        head = 0;
    }
}
