package io.jrxe.tools.conformance;

/**
 * Where things lie in a conformance target's 64 KiB buffer: both sides know it, so the exchange carries only the
 * buffer's address and the keys. The main region (full remote access) covers the first {@link #MAIN_BYTES}; the
 * regions after it carry one restricted key each, so that every key's bounds are known to the tester.
 */
public final class TargetLayout {
    public static final int BUFFER_BYTES = 64 * 1024;

    /** The main region: receives, WRITE target, READ source and atomic cells. */
    public static final int MAIN_BYTES = 16 * 1024;
    /** Receive buffers, posted before the target connects ({@link #RECEIVES} of {@link #RECEIVE_BYTES}). */
    public static final int RECEIVE_AT = 0;
    public static final int RECEIVES = 2;
    public static final int RECEIVE_BYTES = 2048;
    public static final int WRITE_AT = 4096;
    /** Filled with {@link #readPattern(int)} before the target connects. */
    public static final int READ_AT = 8192;
    public static final int READ_BYTES = 4096;
    /** Two 8-byte atomic cells, each starting at {@link #ATOMIC_START}. */
    public static final int ATOMIC_AT = 12288;
    public static final long ATOMIC_START = 0x1111_2222_3333_4444L;

    /** Regions of one restricted key each, 4 KiB: REMOTE_READ only, REMOTE_WRITE only, no remote right, another PD's. */
    public static final int READ_ONLY_AT = 16384;
    public static final int WRITE_ONLY_AT = 20480;
    public static final int NO_REMOTE_AT = 24576;
    public static final int OTHER_PD_AT = 28672;
    /** A region registered then deregistered: its key is dead. */
    public static final int DEAD_AT = 32768;
    public static final int REGION_BYTES = 4096;
    /** A type 1 memory window (jrxe in-process target only) over [WINDOW_AT, WINDOW_AT + WINDOW_BYTES). */
    public static final int WINDOW_AT = 37888;
    public static final int WINDOW_BYTES = 1024;
    /** The region the window is bound in (MW_BIND access). */
    public static final int WINDOW_REGION_AT = 36864;

    /** The RNR timer code the target's QP is given: an RNR NAK must carry it. */
    public static final int MIN_RNR_TIMER = 12;
    /** Responder resources of the target's QP (max_dest_rd_atomic). */
    public static final int RESPONDER_RESOURCES = 4;
    /** Where the in-process target's UD QP receives (GRH area and payload). */
    public static final int UD_RECEIVE_AT = 40960;
    /** The Q_Key of the in-process target's UD QP. */
    public static final int UD_QKEY = 0x11111111;

    private TargetLayout() {
    }

    /** Byte i of the READ area. */
    public static byte readPattern(int i) {
        return (byte) (i * 7 + 3);
    }
}
