package io.jrxe.rnic.engine;

/**
 * The responses of one QP waiting to be sent, in PSN order: a READ's response goes out a few
 * packets per turn under the device's budget, and every response after it (an ACK, an atomic's
 * result, a NAK) waits behind it, because a requester takes a response beyond an unanswered
 * READ for an implied NAK. A ring of preallocated slots; NIC thread only.
 */
final class ResponseQueue {
    private final PendingResponse[] slots;
    private int head;
    private int size;

    ResponseQueue(int capacity) {
        slots = new PendingResponse[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = new PendingResponse();
        }
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
        PendingResponse p = slots[(head + size) % slots.length];
        size++;
        p.entry = null;
        return p;
    }

    void removeHead() {
        slots[head].entry = null;
        head = (head + 1) % slots.length;
        size--;
    }

    void clear() {
        while (size > 0) {
            removeHead();
        }
        head = 0;
    }
}
