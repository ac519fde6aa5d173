package io.jrxe.tools.udpsoak;

import io.jrxe.tools.UserError;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.zip.CRC32;

/**
 * One side of the soak: its QPs, memory and shadow of the peer's regions, the seeded mix of operations it posts
 * (RDMA WRITE, RDMA READ, SEND, FETCH_AND_ADD, CMP_AND_SWP, sizes from 0 to 8 KiB, {@link UdpSoakLayout#WINDOW}
 * outstanding per QP) and every check: a READ returns what the shadow says the peer's region holds, an atomic the
 * old value it says, each work request completes once and successfully, each SEND the peer made arrives once, in
 * order and intact. Both sides run the same code against each other, so requests and responses cross the faults
 * of both ports in both directions.
 */
final class UdpSoakSide implements AutoCloseable {
    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;
    /**
     * IBTA's timeout exponent: 4.096 us x 2^14, about 67 ms before a lost packet is sent again, 8 tries in all
     * (rdma-core's default): long enough for a peer whose NIC thread waits for a core behind other JVMs on a busy
     * 2-core machine. With 34 ms a soak ran out of retries while other builds' tests ran beside it.
     */
    private static final int ACK_TIMEOUT = 14;
    private static final long RECEIVE_TAG = 1L << 62;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private final UdpSoakLayout layout;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment memory;
    private final Pd pd;
    private final Cq cq;
    private final Mr mr;
    private final Qp[] qps;
    private final int[] psns;
    private final Random random;
    private final PrintWriter diagnostics;
    private final java.util.function.IntPredicate requesterOf;

    private UdpSoakDest peer;
    /** What each of the peer's regions holds, as this side's operations left it. */
    private byte[][] shadow;
    /** Per QP and slot: the operation outstanding there (0: none), what a READ or an atomic must return. */
    private long[][] slotOp;
    private WrOpcode[][] slotKind;
    private byte[][][] slotExpected;
    private int[] outstanding;
    private long[] sends;
    private long[] received;

    long posted;
    long ok;
    long failed;
    long mismatches;
    long duplicated;
    long lost;
    private int detailsLeft = 10;

    /**
     * @param requesterOf whether this side posts on QP q: every QP when both sides use each QP both ways, else the
     *                    QPs of one parity, the peer's the others
     */
    UdpSoakSide(Context ctx, int qpCount, long seed, java.util.function.IntPredicate requesterOf, PrintWriter diagnostics)
            throws VerbsException {
        layout = new UdpSoakLayout(qpCount);
        this.requesterOf = requesterOf;
        this.random = new Random(seed);
        this.diagnostics = diagnostics;
        memory = arena.allocate(layout.size(), 4096);
        for (int q = 0; q < qpCount; q++) {
            for (int i = 0; i < UdpSoakLayout.REGION; i++) {
                memory.set(ValueLayout.JAVA_BYTE, layout.region(q) + i, UdpSoakLayout.initial(q, i));
            }
        }
        pd = ctx.allocPd();
        cq = ctx.createCq(Math.min(32_000, qpCount * (UdpSoakLayout.WINDOW + UdpSoakLayout.RECEIVES) * 2), null);
        mr = pd.regMr(memory, ACCESS);
        qps = new Qp[qpCount];
        psns = new int[qpCount];
        QpCapabilities caps = new QpCapabilities(2 * UdpSoakLayout.WINDOW, UdpSoakLayout.RECEIVES, 1, 1, 0);
        for (int q = 0; q < qpCount; q++) {
            qps[q] = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, caps, false));
            psns[q] = random.nextInt(1 << 24);
        }
    }

    UdpSoakDest mine(byte[] gid) {
        int[] qpns = new int[qps.length];
        for (int q = 0; q < qps.length; q++) {
            qpns[q] = qps[q].qpNum();
        }
        return new UdpSoakDest(gid, qpns, psns.clone(), memory.address(), mr.rkey());
    }

    /** Connects each QP to the peer's of the same index, and posts the receives of the peer's SENDs. */
    void connect(UdpSoakDest peer, int sgidIndex, Mtu mtu) throws VerbsException {
        if (peer.qpns().length != qps.length) {
            throw new UserError("the peer has " + peer.qpns().length + " QPs and this side " + qps.length
                    + ": give both the same --qps");
        }
        this.peer = peer;
        int n = qps.length;
        shadow = new byte[n][UdpSoakLayout.REGION];
        slotOp = new long[n][UdpSoakLayout.WINDOW];
        slotKind = new WrOpcode[n][UdpSoakLayout.WINDOW];
        slotExpected = new byte[n][UdpSoakLayout.WINDOW][];
        outstanding = new int[n];
        sends = new long[n];
        received = new long[n];
        for (int q = 0; q < n; q++) {
            for (int i = 0; i < UdpSoakLayout.REGION; i++) {
                shadow[q][i] = UdpSoakLayout.initial(q, i);
            }
            QpConnect.to(new QpPeer(peer.qpns()[q], peer.psns()[q], peer.gid())).localPsn(psns[q]).sgidIndex(sgidIndex)
                    .pathMtu(mtu).accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC)
                    .timeout(ACK_TIMEOUT).readAtomic(UdpSoakLayout.WINDOW, UdpSoakLayout.WINDOW).apply(qps[q]);
            for (int s = 0; s < UdpSoakLayout.RECEIVES; s++) {
                postReceive(q, s);
            }
        }
    }

    /** Whether this side may post another operation now, and on which QP (-1: every window is full). */
    private int freeQp() {
        int start = random.nextInt(qps.length);
        for (int i = 0; i < qps.length; i++) {
            int q = (start + i) % qps.length;
            if (requesterOf.test(q) && outstanding[q] < UdpSoakLayout.WINDOW) {
                return q;
            }
        }
        return -1;
    }

    /** Posts the next operation of the mix on a QP with room. False when none has. */
    boolean postOne() throws VerbsException {
        int q = freeQp();
        if (q < 0) {
            return false;
        }
        int slot = 0;
        while (slotOp[q][slot] != 0) {
            slot++;
        }
        long id = ++posted;
        SendWr wr = new SendWr(1);
        wr.flags = SendWr.SIGNALED;
        wr.wrId = (long) q << 40 | (long) slot << 32 | id;
        long local = layout.slot(q, slot);
        long remote = peer.base() + layout.region(q);
        int pick = random.nextInt(100);
        byte[] expected = null;
        if (pick < 50) {
            int length = random.nextInt(UdpSoakLayout.MAX_TRANSFER + 1);
            int offset = random.nextInt(UdpSoakLayout.DATA - length + 1);
            wr.remoteAddr = remote + offset;
            wr.rkey = peer.rkey();
            if (pick < 28) {
                wr.opcode = WrOpcode.RDMA_WRITE;
                // A READ the peer answers again after a lost response reads memory as it is then: without the fence
                // a later WRITE to the same bytes could already be there (IBTA 9.4.4), and the shadow would be wrong.
                wr.flags |= SendWr.FENCE;
                for (int k = 0; k < length; k++) {
                    byte b = (byte) random.nextInt();
                    memory.set(ValueLayout.JAVA_BYTE, local + k, b);
                    shadow[q][offset + k] = b;
                }
            } else {
                wr.opcode = WrOpcode.RDMA_READ;
                memory.asSlice(local, length).fill((byte) 0x5A);
                expected = java.util.Arrays.copyOfRange(shadow[q], offset, offset + length);
            }
            wr.sgl.add(memory.address() + local, length, mr.lkey());
        } else if (pick < 80) {
            wr.opcode = WrOpcode.SEND;
            int length = UdpSoakLayout.SEND_HEADER + random.nextInt(UdpSoakLayout.MAX_SEND + 1);
            long seq = sends[q]++;
            memory.set(WORD, local, seq);
            memory.set(ValueLayout.JAVA_INT_UNALIGNED, local + 8, length);
            for (int k = UdpSoakLayout.SEND_HEADER; k < length; k++) {
                memory.set(ValueLayout.JAVA_BYTE, local + k, UdpSoakLayout.payload(q, seq, k));
            }
            wr.sgl.add(memory.address() + local, length, mr.lkey());
        } else {
            int counter = random.nextInt(UdpSoakLayout.COUNTERS);
            int offset = UdpSoakLayout.DATA + counter * 8;
            MemorySegment word = MemorySegment.ofArray(shadow[q]);
            long old = word.get(WORD, offset);
            wr.remoteAddr = remote + offset;
            wr.rkey = peer.rkey();
            if (pick < 90) {
                wr.opcode = WrOpcode.ATOMIC_FETCH_AND_ADD;
                wr.compareAdd = random.nextLong();
                word.set(WORD, offset, old + wr.compareAdd);
            } else {
                wr.opcode = WrOpcode.ATOMIC_CMP_AND_SWP;
                boolean hit = random.nextBoolean();
                wr.compareAdd = hit ? old : old ^ 1;
                wr.swap = random.nextLong();
                if (hit) {
                    word.set(WORD, offset, wr.swap);
                }
            }
            expected = new byte[8];
            MemorySegment.ofArray(expected).set(WORD, 0, old);
            memory.set(WORD, local, ~old);
            wr.sgl.add(memory.address() + local, 8, mr.lkey());
        }
        slotOp[q][slot] = id;
        slotKind[q][slot] = wr.opcode;
        slotExpected[q][slot] = expected;
        outstanding[q]++;
        qps[q].postSend(wr);
        return true;
    }

    /**
     * Polls the CQ, waiting up to a millisecond (spinning, yielding, then parked: the NIC threads of both sides
     * need the cores more than this thread does), and checks what came. How many completions that was.
     */
    int poll(WorkCompletion[] wcs) throws VerbsException {
        int n;
        try {
            n = cq.poll(wcs, 1, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted");
        }
        for (int i = 0; i < n; i++) {
            WorkCompletion wc = wcs[i];
            if ((wc.wrId() & RECEIVE_TAG) != 0) {
                receiveDone(wc);
            } else {
                sendDone(wc);
            }
        }
        return n;
    }

    private void sendDone(WorkCompletion wc) {
        int q = (int) (wc.wrId() >>> 40);
        int slot = (int) (wc.wrId() >>> 32) & 0xFF;
        long id = wc.wrId() & 0xFFFF_FFFFL;
        if (q >= qps.length || slot >= UdpSoakLayout.WINDOW || slotOp[q][slot] != id) {
            duplicated++;
            detail("a completion for no outstanding work request: wr_id 0x" + Long.toHexString(wc.wrId()));
            return;
        }
        slotOp[q][slot] = 0;
        outstanding[q]--;
        byte[] expected = slotExpected[q][slot];
        slotExpected[q][slot] = null;
        if (wc.status() != WcStatus.SUCCESS) {
            failed++;
            detail("QP " + q + ": " + slotKind[q][slot] + " #" + id + " completed with " + wc.status());
            return;
        }
        if (expected != null) {
            MemorySegment got = memory.asSlice(layout.slot(q, slot), expected.length);
            long at = got.mismatch(MemorySegment.ofArray(expected));
            if (at >= 0) {
                mismatches++;
                detail("QP " + q + ": " + slotKind[q][slot] + " #" + id + " returned a wrong byte at " + at + " of "
                        + expected.length);
                return;
            }
        }
        ok++;
    }

    private void receiveDone(WorkCompletion wc) throws VerbsException {
        int q = (int) (wc.wrId() >>> 32) & 0xFFFFFF;
        int slot = (int) wc.wrId();
        if (wc.status() != WcStatus.SUCCESS || wc.opcode() != WcOpcode.RECV) {
            failed++;
            detail("QP " + q + ": a receive completed with " + wc.status());
            return;
        }
        long at = layout.receive(q, slot);
        long seq = memory.get(WORD, at);
        int length = memory.get(ValueLayout.JAVA_INT_UNALIGNED, at + 8);
        long expected = received[q]++;
        boolean intact = seq == expected && length == wc.byteLen();
        for (int k = UdpSoakLayout.SEND_HEADER; intact && k < length; k++) {
            intact = memory.get(ValueLayout.JAVA_BYTE, at + k) == UdpSoakLayout.payload(q, seq, k);
        }
        if (!intact) {
            mismatches++;
            detail("QP " + q + ": SEND #" + expected + " arrived as #" + seq + ", " + wc.byteLen() + " bytes (header "
                    + length + "), or with a wrong byte");
        }
        postReceive(q, slot);
    }

    private void postReceive(int q, int slot) throws VerbsException {
        RecvWr r = new RecvWr(1);
        r.wrId = RECEIVE_TAG | (long) q << 32 | slot;
        r.sgl.add(memory.address() + layout.receive(q, slot), UdpSoakLayout.RECEIVE_SLOT, mr.lkey());
        qps[q].postRecv(r);
    }

    /** Operations posted and not completed. */
    long outstanding() {
        long n = 0;
        for (int o : outstanding) {
            n += o;
        }
        return n;
    }

    /** What this side tells the peer at the end: per QP the SENDs it made and the CRC of its shadow of the peer's region. */
    byte[] summary() {
        StringBuilder s = new StringBuilder();
        for (int q = 0; q < qps.length; q++) {
            CRC32 crc = new CRC32();
            crc.update(shadow[q]);
            s.append(String.format("%08x %08x%n", sends[q], crc.getValue()));
        }
        return s.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    int summaryLength() {
        return qps.length * 18;
    }

    /** How many SENDs the peer's summary says it made on QP {@code q}. */
    static long peerSends(byte[] summary, int q) {
        return Long.parseLong(new String(summary, q * 18, 8, java.nio.charset.StandardCharsets.US_ASCII), 16);
    }

    /** Whether every SEND the peer made has arrived. */
    boolean receivedAll(byte[] peerSummary) {
        for (int q = 0; q < qps.length; q++) {
            if (received[q] < peerSends(peerSummary, q)) {
                return false;
            }
        }
        return true;
    }

    /** Compares this side's regions with the peer's shadows and counts SENDs that never came or came too often. */
    void checkAgainst(byte[] peerSummary) {
        for (int q = 0; q < qps.length; q++) {
            long theirs = peerSends(peerSummary, q);
            if (received[q] != theirs) {
                long missing = theirs - received[q];
                if (missing > 0) {
                    lost += missing;
                } else {
                    duplicated -= missing;
                }
                detail("QP " + q + ": the peer made " + theirs + " SENDs and " + received[q] + " arrived");
            }
            CRC32 crc = new CRC32();
            crc.update(memory.asSlice(layout.region(q), UdpSoakLayout.REGION).asByteBuffer());
            long expected = Long.parseLong(new String(peerSummary, q * 18 + 9, 8, java.nio.charset.StandardCharsets.US_ASCII), 16);
            if (crc.getValue() != expected) {
                mismatches++;
                detail("QP " + q + ": this side's region is not what the peer's operations should have left there");
            }
        }
    }

    /** Counts every operation still outstanding as lost. */
    void giveUp() {
        lost += outstanding();
    }

    private void detail(String line) {
        if (detailsLeft-- > 0 && diagnostics != null) {
            diagnostics.println("udp-soak: " + line);
            diagnostics.flush();
        }
    }

    @Override
    public void close() {
        for (Qp qp : qps) {
            closeQuietly(qp);
        }
        closeQuietly(mr);
        closeQuietly(cq);
        closeQuietly(pd);
        arena.close();
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            // the device goes with the command, and its resources with it
        }
    }
}
