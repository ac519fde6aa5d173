package io.jrxe.wire.port.fault;

/**
 * Where each QP's current message started (its first packet's PSN) and the newest PSN a rule hit, so that a rule
 * can pick the Nth packet of each message and hit each packet once, not its go-back-N resends. Keyed by the BTH's
 * destination QP and whether the packet is a response: a QP's requests and the responses to its peer's requests
 * go to the same QP number with PSNs of their own. Open addressing; it grows only when a new QP shows up.
 */
final class MessagePositions {
    private static final int PSN_MASK = 0xFFFFFF;
    private static final int NONE = -1;
    private int[] keys = new int[64];
    private int[] first = new int[64];
    private int[] hit = new int[64];
    private int size;

    /** The slot of a key, made when it is new. Keys are at least 1: 0 marks a free slot. */
    private int slot(int key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] != 0) {
            if (keys[i] == key) {
                return i;
            }
            i = (i + 1) & mask;
        }
        if (2 * (size + 1) > keys.length) {
            grow();
            return slot(key);
        }
        keys[i] = key;
        first[i] = NONE;
        hit[i] = NONE;
        size++;
        return i;
    }

    private void grow() {
        int[] k = keys;
        int[] f = first;
        int[] h = hit;
        keys = new int[k.length * 2];
        first = new int[k.length * 2];
        hit = new int[k.length * 2];
        size = 0;
        for (int i = 0; i < k.length; i++) {
            if (k[i] != 0) {
                int s = slot(k[i]);
                first[s] = f[i];
                hit[s] = h[i];
            }
        }
    }

    private static int mix(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    private static int key(int qpn, boolean response) {
        return ((qpn & PSN_MASK) << 1 | (response ? 1 : 0)) + 1;
    }

    /**
     * The packet's place in its message, from 1, after noting it: a first or only packet starts a message; a middle
     * or last one counts from its message's first PSN (0 when that first packet was never seen).
     */
    int place(int qpn, boolean response, boolean starts, int psn) {
        int s = slot(key(qpn, response));
        if (starts) {
            first[s] = psn;
            return 1;
        }
        if (first[s] == NONE) {
            return 0;
        }
        int place = ((psn - first[s]) & PSN_MASK) + 1;
        return place > (1 << 23) ? 0 : place;
    }

    /** Whether {@code psn} is past the newest one hit so far for this QP and kind: a resend is not. */
    boolean fresh(int qpn, boolean response, int psn) {
        int h = hit[slot(key(qpn, response))];
        if (h == NONE) {
            return true;
        }
        int ahead = (psn - h) & PSN_MASK;
        return ahead != 0 && ahead < (1 << 23);
    }

    void hit(int qpn, boolean response, int psn) {
        hit[slot(key(qpn, response))] = psn;
    }
}
