package io.jrxe.tools.analyze;

import java.util.Arrays;

/**
 * What the capture showed of each recent request packet of one requester, by PSN: when it was first and
 * last seen, how often, its IPv4 identification and ICRC (which tell a network's copy from a resend), and
 * whether it asked for an ACK. A ring indexed by the PSN's low bits, in primitive arrays: it grows with
 * the requester's window of unacknowledged PSNs up to {@link #LARGEST}, and past that the oldest PSNs
 * are forgotten, so one requester costs at most a few tens of megabytes whatever the capture's size.
 */
final class SentRequests {
    static final int LARGEST = 1 << 20;
    /** The most answer PSNs (a READ's response packets) one READ makes room for. */
    static final int LARGEST_ANSWERED = 4096;
    private static final int FIRST = 16;

    static final int ACK_REQUEST = 1;
    static final int READ = 2;
    static final int ATOMIC = 4;
    static final int SAMPLED = 8;

    private int[] psn = new int[FIRST];
    private long[] firstFrame = new long[FIRST];
    private long[] firstTime = new long[FIRST];
    private long[] lastFrame = new long[FIRST];
    private long[] lastTime = new long[FIRST];
    private int[] sends = new int[FIRST];
    private int[] ipId = new int[FIRST];
    private int[] icrc = new int[FIRST];
    private byte[] flags = new byte[FIRST];

    SentRequests() {
        Arrays.fill(psn, -1);
    }

    /** Makes room for {@code window} PSNs, up to {@link #LARGEST}. */
    void ensure(int window) {
        int size = psn.length;
        if (window < size / 2 || size >= LARGEST) {
            return;
        }
        int grown = size;
        while (window >= grown / 2 && grown < LARGEST) {
            grown <<= 1;
        }
        int[] oldPsn = psn;
        long[] oldFirstFrame = firstFrame;
        long[] oldFirstTime = firstTime;
        long[] oldLastFrame = lastFrame;
        long[] oldLastTime = lastTime;
        int[] oldSends = sends;
        int[] oldIpId = ipId;
        int[] oldIcrc = icrc;
        byte[] oldFlags = flags;
        psn = new int[grown];
        Arrays.fill(psn, -1);
        firstFrame = new long[grown];
        firstTime = new long[grown];
        lastFrame = new long[grown];
        lastTime = new long[grown];
        sends = new int[grown];
        ipId = new int[grown];
        icrc = new int[grown];
        flags = new byte[grown];
        for (int i = 0; i < size; i++) {
            if (oldPsn[i] >= 0) {
                int j = oldPsn[i] & (grown - 1);
                psn[j] = oldPsn[i];
                firstFrame[j] = oldFirstFrame[i];
                firstTime[j] = oldFirstTime[i];
                lastFrame[j] = oldLastFrame[i];
                lastTime[j] = oldLastTime[i];
                sends[j] = oldSends[i];
                ipId[j] = oldIpId[i];
                icrc[j] = oldIcrc[i];
                flags[j] = oldFlags[i];
            }
        }
    }

    /** The slot of {@code p}, or -1 when it was never seen or has been forgotten. */
    int find(int p) {
        int i = p & (psn.length - 1);
        return psn[i] == p ? i : -1;
    }

    /** Records the first sight of {@code p}; returns its slot. */
    int first(int p, long frame, long time, int id, int crc, int flagBits) {
        int i = p & (psn.length - 1);
        psn[i] = p;
        firstFrame[i] = frame;
        firstTime[i] = time;
        lastFrame[i] = frame;
        lastTime[i] = time;
        sends[i] = 1;
        ipId[i] = id;
        icrc[i] = crc;
        flags[i] = (byte) flagBits;
        return i;
    }

    /** Records another sight of the packet in slot {@code i}. */
    void again(int i, long frame, long time, int id, int crc) {
        lastFrame[i] = frame;
        lastTime[i] = time;
        sends[i]++;
        ipId[i] = id;
        icrc[i] = crc;
    }

    long firstFrame(int i) {
        return firstFrame[i];
    }

    long firstTime(int i) {
        return firstTime[i];
    }

    long lastFrame(int i) {
        return lastFrame[i];
    }

    long lastTime(int i) {
        return lastTime[i];
    }

    int sends(int i) {
        return sends[i];
    }

    int ipId(int i) {
        return ipId[i];
    }

    int icrc(int i) {
        return icrc[i];
    }

    boolean has(int i, int flag) {
        return (flags[i] & flag) != 0;
    }

    void mark(int i, int flag) {
        flags[i] |= (byte) flag;
    }
}
