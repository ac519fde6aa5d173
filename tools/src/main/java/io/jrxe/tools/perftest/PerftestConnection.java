package io.jrxe.tools.perftest;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.OobSocket;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * perftest's out-of-band TCP exchange, each piece in its order. Every exchange is symmetric: the client
 * writes its part then reads the server's; the server reads first then writes (ctx_xchg_data). The pieces:
 * the version string (16 bytes), the "system data" (cycle buffer and cache line size, 4 bytes each, network
 * order), the MTU (its ibv_mtu number as text, 2 bytes with the NUL), the QP handshakes (the key messages of
 * {@link PerftestDest}), and at the end the bandwidth report (size and iterations as 64-bit integers, peak
 * and average bandwidth and message rate as doubles, all in network order).
 *
 * <p>Which pieces a perftest sends depends on the version it reads from its peer: the MTU from 5.1 (as 2
 * bytes from 5.31), the system data from 5.32, 64-bit iterations from 5.33; below 5.70 it refuses the peer.
 * After the MTU, perftest 6.28 (release 26.01) always negotiates its parameters ({@link NegotiationParameters}),
 * and 6.29 on do when the peer says 6.28 or later: {@link #negotiate}. jrxe says it is {@value #VERSION}, so
 * every perftest from 4.5 on pairs with it and only 6.28 negotiates with it; announcing 6.28 or later
 * (--announce-version) it negotiates as 6.29 does.
 */
public final class PerftestConnection implements AutoCloseable {
    /** The version jrxe advertises: what perftest 4.5-0.20 advertised. */
    public static final String VERSION = "6.10";
    /** perftest's MAX_VERSION: the bytes of the version exchange. */
    public static final int VERSION_BYTES = 16;
    public static final int CYCLE_BUFFER = 4096;
    public static final int CACHE_LINE = 64;
    /** How long a server waits for the last 8 bytes of a negotiation struct, which only an mlx5dv build sends. */
    static final int MLX5DV_TAIL_GRACE_MILLIS = 300;

    private final ExchangeChannel socket;
    private final boolean client;
    private final String announced;
    private String remoteVersion = VERSION;

    public PerftestConnection(OobSocket socket, boolean client) {
        this(new TcpExchange(socket), client, VERSION);
    }

    /** A TCP connection that tells the peer it is perftest {@code announced}. */
    PerftestConnection(OobSocket socket, boolean client, String announced) {
        this(new TcpExchange(socket), client, announced);
    }

    /** A connection over {@code channel} that tells the peer it is perftest {@code announced}. */
    PerftestConnection(ExchangeChannel channel, boolean client, String announced) {
        this.socket = channel;
        this.client = client;
        this.announced = announced;
    }

    public boolean isClient() {
        return client;
    }

    /** One exchange of {@code mine} for the peer's bytes of the same length. */
    byte[] exchange(byte[] mine, String what, boolean unbounded) {
        if (client) {
            socket.write(mine, what);
            return unbounded ? socket.readExactlyUnbounded(mine.length, what) : socket.readExactly(mine.length, what);
        }
        byte[] theirs = unbounded ? socket.readExactlyUnbounded(mine.length, what) : socket.readExactly(mine.length, what);
        socket.write(mine, what);
        return theirs;
    }

    /** Trades version strings and checks that the peer's is one jrxe speaks with. */
    public String exchangeVersions() {
        byte[] theirs = exchange(Arrays.copyOf(announced.getBytes(StandardCharsets.US_ASCII), VERSION_BYTES), "its perftest version", false);
        int end = 0;
        while (end < theirs.length && theirs[end] != 0) {
            end++;
        }
        remoteVersion = new String(theirs, 0, end, StandardCharsets.US_ASCII);
        double v = atof(remoteVersion);
        if (v < 5.70) {
            throw new UserError("Current implementation is not compatible with versions older than 5.70 (the peer says \""
                    + remoteVersion + "\")");
        }
        return remoteVersion;
    }

    public String remoteVersion() {
        return remoteVersion;
    }

    public double remoteVersionNumber() {
        return atof(remoteVersion);
    }

    /** The page size and cache line size both sides use: the larger of each side's (from 5.32). */
    public int[] exchangeSysData(int cycleBuffer, int cacheLine) {
        if (remoteVersionNumber() < 5.32) {
            return new int[] {cycleBuffer, cacheLine};
        }
        int remoteCycle = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(cycleBuffer).array(), "its page size", false)).getInt();
        int remoteCache = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(cacheLine).array(), "its cache line size", false)).getInt();
        return new int[] {Math.max(cycleBuffer, remoteCycle), Math.max(cacheLine, remoteCache)};
    }

    /**
     * Trades MTUs (ibv_mtu numbers, 1 for 256 to 5 for 4096) and returns the smaller; a peer's value that is no
     * MTU is ignored, as perftest does.
     */
    public int exchangeMtu(int mtuEnum) {
        double v = remoteVersionNumber();
        if (v < 5.1) {
            return mtuEnum;
        }
        byte[] mine = Arrays.copyOf(Integer.toString(mtuEnum).getBytes(StandardCharsets.US_ASCII), v >= 5.31 ? 2 : 4);
        byte[] theirs = exchange(mine, "its MTU", false);
        int remote = (int) atol(new String(theirs, StandardCharsets.US_ASCII));
        return remote >= 1 && remote <= 5 && remote < mtuEnum ? remote : mtuEnum;
    }

    /**
     * Whether the peer negotiates its parameters after the MTU: perftest 6.28 always does, 6.29 and later when the
     * version they read from their peer is 6.28 or later (negotiate_params).
     */
    public boolean negotiates() {
        double peer = remoteVersionNumber();
        return peer >= 6.28 && (peer < 6.29 || atof(announced) >= 6.28);
    }

    /**
     * perftest's negotiate_params: trade the structs (ctx_xchg_data: the client writes first) and check that the
     * settings agree, as both sides do; returns the peer's. A perftest built with mlx5dv sends and expects
     * {@value NegotiationParameters#SIZE_MLX5DV} bytes, one without {@value NegotiationParameters#SIZE}: a server
     * answers with the length the client sent (the tail comes in the same TCP segment as the rest, or not at
     * all); a client cannot know, and sends the longer form unless {@code peerMlx5dv} is false.
     */
    public NegotiationParameters negotiate(NegotiationParameters mine, boolean peerMlx5dv) {
        String what = "its negotiation parameters (perftest " + remoteVersion + "'s struct perftest_parameters_negotiate)";
        byte[] theirs;
        if (client) {
            int length = peerMlx5dv ? NegotiationParameters.SIZE_MLX5DV : NegotiationParameters.SIZE;
            socket.write(mine.encode(length), what);
            theirs = socket.readExactly(NegotiationParameters.SIZE, what);
            if (peerMlx5dv) {
                byte[] tail = socket.readTail(8, MLX5DV_TAIL_GRACE_MILLIS, what);
                if (tail.length < 8) {
                    throw new UserError("the peer perftest " + remoteVersion + " answered the negotiation with "
                            + (NegotiationParameters.SIZE + tail.length) + " bytes, not " + length + ": it was built without "
                            + "mlx5dv; run jrxe with --peer-mlx5dv no");
                }
                theirs = concat(theirs, tail);
            }
        } else {
            theirs = socket.readExactly(NegotiationParameters.SIZE, what);
            byte[] tail = socket.readTail(8, MLX5DV_TAIL_GRACE_MILLIS, what);
            if (tail.length > 0 && tail.length < 8) {
                tail = concat(tail, socket.readExactly(8 - tail.length, what));
            }
            theirs = concat(theirs, tail);
            socket.write(mine.encode(theirs.length), what);
        }
        NegotiationParameters remote = NegotiationParameters.decode(theirs);
        String mismatch = mine.mismatch(remote, remoteVersionNumber() >= 6.29);
        if (mismatch != null) {
            throw new UserError(mismatch + ": perftest " + remoteVersion + " negotiates its parameters and refuses a peer whose "
                    + "settings differ; give both sides the same options");
        }
        return remote;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** One QP handshake: trade key messages (perftest's ctx_hand_shake). */
    public PerftestDest handshake(PerftestDest mine, String what) {
        return handshake(mine, what, false);
    }

    /**
     * A handshake while the peer may be busy for long (the client running the whole test while the server
     * waits): no time limit, but the peer going away ends the wait.
     */
    public PerftestDest handshakeUnbounded(PerftestDest mine, String what) {
        return handshake(mine, what, true);
    }

    private PerftestDest handshake(PerftestDest mine, String what, boolean unbounded) {
        if (socket.binaryKeys()) {
            return DestStruct.decode(exchange(DestStruct.encode(mine), what, unbounded));
        }
        byte[] theirs = exchange(mine.toWire(), what, unbounded);
        try {
            return PerftestDest.parse(theirs, mine.gid() != null);
        } catch (IllegalArgumentException e) {
            throw new UserError("the peer " + socket.peer() + " sent " + e.getMessage(), e);
        }
    }

    /** perftest's xchg_bw_reports: each field is its own exchange. */
    public BwReport exchangeBwReport(BwReport mine, boolean unbounded) {
        boolean wide = remoteVersionNumber() >= 5.33;
        long size = ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putLong(mine.size()).array(), "its report", unbounded)).getLong();
        byte[] itersBytes = wide ? ByteBuffer.allocate(8).putLong(mine.iters()).array() : ByteBuffer.allocate(4).putInt((int) mine.iters()).array();
        ByteBuffer iters = ByteBuffer.wrap(exchange(itersBytes, "its report", false));
        long remoteIters = wide ? iters.getLong() : iters.getInt() & 0xFFFF_FFFFL;
        double peak = ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putDouble(mine.bwPeak()).array(), "its report", false)).getDouble();
        double avg = ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putDouble(mine.bwAvg()).array(), "its report", false)).getDouble();
        double rate = ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putDouble(mine.msgRateAvg()).array(), "its report", false)).getDouble();
        return new BwReport(size, remoteIters, peak, avg, rate);
    }

    /** C's atof: the longest leading decimal number, 0 when there is none. */
    static double atof(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        int start = i;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
        }
        try {
            return Double.parseDouble(s.substring(start, i));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** C's strtol(s, NULL, 10) for the MTU text. */
    static long atol(String s) {
        int i = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        return i == 0 ? 0 : Long.parseLong(s.substring(0, i));
    }

    @Override
    public void close() {
        socket.close();
    }
}
