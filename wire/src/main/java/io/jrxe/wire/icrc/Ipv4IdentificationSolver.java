package io.jrxe.wire.icrc;

import java.nio.ByteBuffer;

/**
 * Verifies the ICRC of an IPv4 RoCE packet received through a UDP socket, which cannot see the
 * IP identification the ICRC covers. CRC-32 is affine in its input bits, so for a packet of a
 * given length ICRC(id) = ICRC(0) xor M·id, with M a 32x16 bit matrix that depends only on the
 * length. Given the stored ICRC, id is solved for; when no id fits, the packet is corrupt. A
 * corrupted packet passes with probability 2^-16 (one of 2^16 ids fits by chance), which is the
 * price of not seeing the header.
 *
 * <p>The matrices are computed once per packet length and cached, as tables: both products are linear over
 * GF(2), so each is the xor of one table entry per 4 bits of its operand, twelve lookups per packet where bit by
 * bit it takes 32 parity steps (most of a small packet's check under C1, the latency tools' JIT). Nibbles rather
 * than bytes keep a length's tables at 768 bytes: a run may see thousands of lengths. Not thread-safe: one per
 * NIC thread.
 */
public final class Ipv4IdentificationSolver {
    /** Result when no identification makes the ICRC valid. */
    public static final int NO_SOLUTION = -1;

    private final IcrcCalculator icrc;
    private final boolean rxeFlush;
    /** Per UDP payload length, the tables of {@link #tables}. */
    private final int[][] byLength = new int[65536][];
    /** Where the tables of M·id start, after the eight of id = R·target. */
    private static final int CHECK = 8 * 16;
    private ByteBuffer zeros = ByteBuffer.allocate(0);

    public Ipv4IdentificationSolver() {
        this(false);
    }

    /** @param rxeFlush whether RC FLUSH packets carry the ICRC rxe computes for them ({@link IcrcCalculator#rxeFlush}) */
    public Ipv4IdentificationSolver(boolean rxeFlush) {
        this.rxeFlush = rxeFlush;
        icrc = new IcrcCalculator().rxeFlush(rxeFlush);
    }

    /**
     * @return the identification (0..65535) for which the stored ICRC is right, or {@link #NO_SOLUTION}
     */
    public int solve(int srcAddr, int dstAddr, int flagsFragment, int srcPort, int dstPort, ByteBuffer roce, int offset,
                     int length) {
        int stored = IcrcCalculator.read(roce, offset + length - IcrcCalculator.LENGTH);
        int target = stored ^ icrc.ipv4(srcAddr, dstAddr, 0, flagsFragment, srcPort, dstPort, roce, offset, length);
        int[] t = tables(length);
        int id = 0;
        for (int k = 0; k < 8; k++) {
            id ^= t[16 * k + (target >>> 4 * k & 0xF)];
        }
        int check = 0;
        for (int k = 0; k < 4; k++) {
            check ^= t[CHECK + 16 * k + (id >>> 4 * k & 0xF)];
        }
        return check == target ? id : NO_SOLUTION;
    }

    /**
     * For one length: R·(n shifted to nibble k of a 32-bit target) for k = 0..7, n = 0..15, then M·(n shifted to
     * nibble k of a 16-bit identification) for k = 0..3.
     */
    private int[] tables(int length) {
        int[] t = byLength[length];
        if (t == null) {
            int[] m = build(length);
            t = new int[CHECK + 4 * 16];
            for (int k = 0; k < 8; k++) {
                for (int n = 0; n < 16; n++) {
                    int target = n << (4 * k);
                    int id = 0;
                    for (int i = 0; i < 16; i++) {
                        if ((Integer.bitCount(target & m[16 + i]) & 1) != 0) {
                            id |= 1 << i;
                        }
                    }
                    t[16 * k + n] = id;
                }
            }
            for (int k = 0; k < 4; k++) {
                for (int n = 0; n < 16; n++) {
                    int check = 0;
                    for (int j = 0; j < 4; j++) {
                        if ((n & (1 << j)) != 0) {
                            check ^= m[4 * k + j];
                        }
                    }
                    t[CHECK + 16 * k + n] = check;
                }
            }
            byLength[length] = t;
        }
        return t;
    }

    /** Per length, the 16 columns, how each identification bit changes the ICRC, then R's 16 rows (a left inverse). */
    private int[] build(int length) {
        if (zeros.capacity() < length) {
            zeros = ByteBuffer.allocate(length);
        }
        // rxe's FLUSH ICRC covers more bytes, which moves how the identification acts on it: build with a FLUSH's opcode.
        zeros.put(0, rxeFlush ? (byte) io.jrxe.wire.opcode.Opcode.RC_FLUSH.code() : 0);
        int base = icrc.ipv4(0, 0, 0, 0, 0, 0, zeros, 0, length);
        int[] m = new int[32];
        for (int j = 0; j < 16; j++) {
            m[j] = icrc.ipv4(0, 0, 1 << j, 0, 0, 0, zeros, 0, length) ^ base;
        }
        // Solve for a 16x32 matrix R with R·M = I over GF(2): eliminate on the 32-bit rows of M^T,
        // carrying along which combination of unit vectors each row is.
        int[] rows = new int[16];
        int[] combo = new int[16];
        for (int j = 0; j < 16; j++) {
            rows[j] = m[j];
            combo[j] = 1 << j;
        }
        int[] pivotBit = new int[16];
        for (int r = 0; r < 16; r++) {
            int bit = Integer.numberOfTrailingZeros(rows[r]);
            if (rows[r] == 0) {
                throw new IllegalStateException("ICRC identification matrix is singular for length " + length);
            }
            pivotBit[r] = bit;
            for (int o = 0; o < 16; o++) {
                if (o != r && (rows[o] & (1 << bit)) != 0) {
                    rows[o] ^= rows[r];
                    combo[o] ^= combo[r];
                }
            }
        }
        // Each reduced row is v_r = M·combo[r], and bit pivotBit[r] is set in v_r alone. Writing
        // T = M·id in that basis, its coefficient on v_r is bit pivotBit[r] of T, and id is the xor of
        // the combo[r] whose coefficient is 1. So id_j = parity(T & R_j), R_j = the pivot bits of the
        // rows whose combo contains j.
        for (int j = 0; j < 16; j++) {
            int rj = 0;
            for (int r = 0; r < 16; r++) {
                if ((combo[r] & (1 << j)) != 0) {
                    rj |= 1 << pivotBit[r];
                }
            }
            m[16 + j] = rj;
        }
        return m;
    }
}
