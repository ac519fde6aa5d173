package io.jrxe.rnic.mcast;

import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.wire.port.PeerAddress;

import java.util.Arrays;

/**
 * One multicast group of a device: its address and the QPs attached to it, in the order they were attached (as
 * rxe keeps them), each once. The receive path walks the members by index, so a datagram's fan-out allocates
 * nothing. Owned by the NIC thread.
 */
public final class MulticastGroup {
    private final PeerAddress address;
    private QueuePair[] members = new QueuePair[4];
    private int size;

    MulticastGroup(PeerAddress address) {
        this.address = address;
    }

    /** The group's IP multicast address, which its datagrams are sent to. */
    public PeerAddress address() {
        return address;
    }

    /** How many QPs are attached. */
    public int size() {
        return size;
    }

    /** The {@code i}th attached QP, 0 to {@link #size()} - 1. */
    public QueuePair member(int i) {
        return members[i];
    }

    boolean has(QueuePair qp) {
        return indexOf(qp) >= 0;
    }

    void add(QueuePair qp) {
        if (size == members.length) {
            members = Arrays.copyOf(members, size * 2);
        }
        members[size++] = qp;
    }

    /** Removes the QP, keeping the others' order; false when it was not attached. */
    boolean remove(QueuePair qp) {
        int i = indexOf(qp);
        if (i < 0) {
            return false;
        }
        System.arraycopy(members, i + 1, members, i, size - i - 1);
        members[--size] = null;
        return true;
    }

    private int indexOf(QueuePair qp) {
        for (int i = 0; i < size; i++) {
            if (members[i] == qp) {
                return i;
            }
        }
        return -1;
    }
}
