package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.FethFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.psn.Psn;
import io.jrxe.wire.sim.PacketFilter;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.US;
import static io.jrxe.verbs.sim.Ops.recv;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A live responder under seeded mutations of valid requests: B's QP gets SENDs, WRITE FIRST,
 * MIDDLE, LAST and ONLY, READ requests, both atomics, FLUSH and ATOMIC WRITE, addressed to a memory
 * region that sits between two guard regions, with the right QPN, PSNs at or near the expected one
 * and the region's R_Key, aimed at its edges, then damaged (bits, bytes, opcode, pad count,
 * lengths, addresses, keys, truncation, extension). Some valid requests come from a third address
 * and must be dropped as such. After every group of {@value #GROUP} packets the guards must be
 * untouched and neither NIC may have counted an engine error or posted DEVICE_FATAL; a QP that a
 * mutation legitimately sent to the error state must be there cleanly and is connected afresh. At
 * the end the heap has not grown without bound and the pair still works. A failure names the
 * group's seed and shows its packets; rerun with {@code -Djrxe.fuzz.seed=SEED -Djrxe.fuzz.responder.groups=1}.
 * On the shared-memory wire, in real time, B's answers may come after the next message was built (it is then out of
 * sequence, as on a network that delays them) and a packet may land after its group's check, for the next group's to
 * see; the same seeds then make the same packets, but what they meet is not replayed exactly.
 */
class ResponderFuzzTest {
    private static final long BASE_SEED = Long.getLong("jrxe.fuzz.seed", 0x5E5_90DEL);
    private static final int GROUPS = Integer.getInteger("jrxe.fuzz.responder.groups", 15_000);
    private static final int GROUP = 16;
    private static final int GUARD = 16 * 1024;
    private static final int REGION = 64 * 1024;
    private static final int MTU = 1024;
    private static final long HEAP_GROWTH_LIMIT = 16L << 20;

    private SimPair p;
    private Mr mr;
    private long va;
    /** Set by B's answers, which on the shared-memory wire pass the filter on a NIC's thread, and by restarts. */
    private volatile int expectedPsn;
    private int recvsPosted;

    @Test
    void mutatedRequestsNeverEscapeTheRegionNorBreakTheNic() throws Exception {
        try (SimPair pair = new SimPair(BASE_SEED, new SimPair.Config(QpType.RC).timeout(8));
             GuardedRegion region = new GuardedRegion(GUARD, REGION)) {
            p = pair;
            mr = p.b.pd.regMr(region.inside(), p.config.mrAccess);
            va = region.inside().address();
            PeerAddress third = PeerAddress.of(InetAddress.getByName("10.0.0.3"));
            p.attach(third);
            p.filter(this::followResponses);
            restart();
            int packets = 0;
            int thirdParty = 0;
            int restarts = 0;
            long heapEarly = 0;
            for (int g = 0; g < GROUPS; g++) {
                long seed = BASE_SEED * 1_000_003L + g;
                Random random = new Random(seed);
                List<String> sent = new ArrayList<>();
                try {
                    if (random.nextInt(4) == 0 && p.b.qp.query().state() == QpState.RTS) {
                        // A valid request from an address that is not the peer's: dropped for that, and for nothing else.
                        long dropped = p.counter(p.b, Counter.DROP_WRONG_ADDRESS);
                        byte[] valid = request(random).getFirst();
                        sent.add("third " + HexFormat.of().formatHex(valid));
                        p.inject(third, p.b.address, valid, Forge.SRC_PORT);
                        p.run(5 * US, () -> p.counter(p.b, Counter.DROP_WRONG_ADDRESS) > dropped);
                        assertThat(p.counter(p.b, Counter.DROP_WRONG_ADDRESS)).as("dropped from a third address")
                                .isEqualTo(dropped + 1);
                        thirdParty++;
                    }
                    while (sent.size() < GROUP) {
                        for (byte[] packet : request(random)) {
                            byte[] damaged = random.nextInt(3) == 0 ? packet : damage(random, packet);
                            sent.add("peer " + HexFormat.of().formatHex(damaged));
                            Forge.inject(p, p.a, p.b, damaged);
                            packets++;
                        }
                        p.run(3 * US); // B answers, and the next message is built on the PSN it expects
                        // Most damage is fatal to the connection: the next message goes to a live responder again,
                        // not to a QP in the error state that drops it unread.
                        if (p.b.qp.query().state() != QpState.RTS || p.a.qp.query().state() != QpState.RTS) {
                            check(region);
                            assertThat(p.b.qp.query().state()).as("a QP that left RTS").isIn(QpState.RTS, QpState.ERR);
                            assertThat(p.a.qp.query().state()).as("a QP that left RTS").isIn(QpState.RTS, QpState.ERR);
                            restarts++;
                            restart();
                        }
                    }
                    p.run(20 * US);
                    check(region);
                    topUpReceives();
                } catch (Throwable t) {
                    throw new AssertionError("group seed " + seed + " (group " + g + "), packets:\n  "
                            + String.join("\n  ", sent) + "\n" + t, t);
                }
                if (g == GROUPS / 10) {
                    heapEarly = usedHeap();
                }
                if (g % (GROUPS / 5) == 0) {
                    System.out.printf("ResponderFuzzTest: heap after %d groups: %d KiB%n", g, usedHeap() >> 10);
                }
            }
            p.run(10 * MS);
            check(region);
            long heapGrowth = usedHeap() - heapEarly;
            System.out.printf("ResponderFuzzTest: %d mutated requests from the peer in %d groups, %d valid ones from a"
                    + " third address, %d restarts after a QP error, heap growth %d KiB%n", packets, GROUPS, thirdParty,
                    restarts, heapGrowth >> 10);
            assertThat(heapGrowth).as("heap growth over the run").isLessThan(HEAP_GROWTH_LIMIT);
            assertThat(p.counter(p.b, Counter.DROP_MALFORMED)).isPositive();
            StringBuilder counters = new StringBuilder();
            for (Counter c : Counter.values()) {
                long n = p.counter(p.b, c);
                if (n != 0) {
                    counters.append(' ').append(c).append('=').append(n);
                }
            }
            System.out.println("ResponderFuzzTest: B's counters:" + counters);
            // Straight through RESET (the receives this test left posted go with it) for the check of the pair.
            p.reconnect(p.a, p.b);
            BadPacketTest.stillWorks(p);
            // And a QP pair created now on the same two devices works from its first packet.
            SimPair.Side[] fresh = p.anotherQpPair();
            int recvs = p.recvCompletions(p.b).size();
            fresh[1].qp.postRecv(recv(fresh[1], 100_000, 64, 4321));
            fresh[0].qp.postSend(Ops.wr(fresh[0], WrOpcode.SEND, 0, 64));
            p.awaitOn(p.b, 0, recvs + 1, 100 * MS);
            WorkCompletion arrived = p.recvCompletions(p.b).get(recvs);
            assertThat(arrived.wrId()).isEqualTo(4321);
            assertThat(arrived.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(arrived.qpNum()).isEqualTo(fresh[1].qp.qpNum());
        }
    }

    /**
     * Keeps the PSN the requests are built around where B expects it, from B's answers (every
     * request asks for an ACK): an ACK, atomic ACK or read response says which PSN B executed last,
     * and a PSN sequence error NAK carries the PSN B expects. So after a mutation made B wait, the
     * next requests are in sequence again and are executed, not all dropped as out of sequence.
     */
    private PacketFilter.Verdict followResponses(PeerAddress from, PeerAddress to, byte[] roce) {
        if (!from.equals(p.b.address) || roce.length <= BthFlyweight.LENGTH) {
            return PacketFilter.Verdict.PASS;
        }
        Opcode op = Opcode.of(roce[0] & 0xFF);
        int psn = new BthFlyweight().wrap(ByteBuffer.wrap(roce), 0).psn();
        if (op == Opcode.RC_ACKNOWLEDGE) {
            int syndrome = roce[BthFlyweight.LENGTH] & 0xFF;
            if (AethSyndrome.type(syndrome) == AethSyndrome.TYPE_NAK
                    && AethSyndrome.value(syndrome) == NakCode.PSN_SEQUENCE_ERROR.value()) {
                expectedPsn = psn;
            } else if (AethSyndrome.type(syndrome) == AethSyndrome.TYPE_ACK) {
                advanceTo(psn + 1);
            }
        } else if (op != null && (op == Opcode.RC_ATOMIC_ACKNOWLEDGE || op.operation() == Operation.RDMA_READ_RESPONSE)) {
            advanceTo(psn + 1);
        }
        return PacketFilter.Verdict.PASS;
    }

    // Only forwards: the answer to a duplicate names an older PSN than B now expects.
    private void advanceTo(int psn) {
        if (Psn.after(Psn.of(psn), expectedPsn)) {
            expectedPsn = Psn.of(psn);
        }
    }

    private void check(GuardedRegion region) throws Exception {
        assertThat(region.firstDamage()).as("guard bytes changed, at this offset from the region").isNull();
        for (SimPair.Side s : new SimPair.Side[] {p.a, p.b}) {
            // The events first: a DEVICE_FATAL one carries the text of the exception an engine threw.
            for (AsyncEvent e = s.ctx.pollAsyncEvent(); e != null; e = s.ctx.pollAsyncEvent()) {
                assertThat(e.type()).as("async event " + e).isNotEqualTo(AsyncEventType.DEVICE_FATAL);
            }
            assertThat(p.counter(s, Counter.ENGINE_ERROR)).as("engine errors of " + s.device).isZero();
        }
    }

    /** Both QPs through RESET to RTS again, B with receives posted: the responder is live for the next group. */
    private void restart() throws Exception {
        p.reconnect(p.a, p.b);
        expectedPsn = p.config.psn;
        // The fixture keeps every completion; the flushed receives of thousands of restarts would
        // otherwise be the heap growth this test watches for.
        for (SimPair.Side s : new SimPair.Side[] {p.a, p.b}) {
            p.sendCompletions(s).clear();
            p.recvCompletions(s).clear();
        }
        recvsPosted = 0;
        topUpReceives();
    }

    private void topUpReceives() throws Exception {
        int outstanding = recvsPosted - p.recvCompletions(p.b).size();
        for (int i = outstanding; i < 64; i++) {
            p.b.qp.postRecv(recv(p.b, 500_000, 8000, 1));
            recvsPosted++;
        }
    }

    private static long usedHeap() {
        Runtime r = Runtime.getRuntime();
        System.gc();
        return r.totalMemory() - r.freeMemory();
    }

    /** One valid request message, of one to four packets, into the guarded region. */
    private List<byte[]> request(Random random) {
        int qpn = p.b.qp.qpNum();
        int psn = expectedPsn;
        if (random.nextInt(4) == 0) {
            psn += random.nextInt(7) - 3; // a duplicate or a packet from the future
        }
        int offset = random.nextBoolean() ? random.nextInt(REGION) : REGION - 1 - random.nextInt(64);
        List<byte[]> message = new ArrayList<>();
        switch (random.nextInt(8)) {
            case 0 -> {
                int length = random.nextInt(3 * MTU);
                addSegments(message, Opcode.RC_SEND_FIRST, Opcode.RC_SEND_MIDDLE, Opcode.RC_SEND_LAST, Opcode.RC_SEND_ONLY,
                        qpn, psn, length, 0, 0);
            }
            case 1 -> {
                int length = Math.min(REGION - offset, random.nextInt(3 * MTU) + 1);
                addSegments(message, Opcode.RC_RDMA_WRITE_FIRST, Opcode.RC_RDMA_WRITE_MIDDLE, Opcode.RC_RDMA_WRITE_LAST,
                        Opcode.RC_RDMA_WRITE_ONLY, qpn, psn, length, va + offset, mr.rkey());
            }
            case 2 -> {
                int length = Math.min(REGION - offset, random.nextInt(4 * MTU));
                message.add(reth(Opcode.RC_RDMA_READ_REQUEST, qpn, psn, 0, va + offset, length));
            }
            case 3, 4 -> {
                Opcode op = random.nextBoolean() ? Opcode.RC_COMPARE_SWAP : Opcode.RC_FETCH_ADD;
                byte[] b = Forge.packet(op, qpn, psn, 0);
                new AtomicEthFlyweight().wrap(ByteBuffer.wrap(b), op.offsetOf(ExtensionHeader.ATOMIC_ETH))
                        .set(va + (offset & ~7), mr.rkey(), random.nextLong(), random.nextLong());
                message.add(b);
            }
            case 5 -> {
                Opcode op = Opcode.RC_FLUSH;
                byte[] b = reth(op, qpn, psn, 0, va + offset, Math.min(REGION - offset, random.nextInt(8192)));
                new FethFlyweight().wrap(ByteBuffer.wrap(b), op.offsetOf(ExtensionHeader.FETH)).set(random.nextInt(2), 1);
                message.add(b);
            }
            case 6 -> message.add(reth(Opcode.RC_ATOMIC_WRITE, qpn, psn, 8, va + (offset & ~7), 8));
            default -> message.add(reth(Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, qpn, psn,
                    Math.min(REGION - offset, random.nextInt(MTU)), va + offset, Math.min(REGION - offset, MTU)));
        }
        for (byte[] b : message) {
            b[8] |= (byte) 0x80; // AckReq: B answers each request, and the answers tell where B's PSN is
        }
        return message;
    }

    private byte[] reth(Opcode op, int qpn, int psn, int payload, long address, long dmaLength) {
        byte[] b = Forge.packet(op, qpn, psn, payload);
        new RethFlyweight().wrap(ByteBuffer.wrap(b), op.offsetOf(ExtensionHeader.RETH)).set(address, mr.rkey(), dmaLength);
        return b;
    }

    /** A message of {@code length} bytes cut at the MTU: ONLY, or FIRST, MIDDLEs and LAST. */
    private void addSegments(List<byte[]> into, Opcode first, Opcode middle, Opcode last, Opcode only, int qpn, int psn,
            int length, long address, int rkey) {
        int packets = Math.max(1, (length + MTU - 1) / MTU);
        for (int i = 0; i < packets; i++) {
            Opcode op = packets == 1 ? only : i == 0 ? first : i == packets - 1 ? last : middle;
            int payload = i == packets - 1 ? length - i * MTU : MTU;
            byte[] b = Forge.packet(op, qpn, (psn + i) & 0xFFFFFF, payload);
            if (op.has(ExtensionHeader.RETH)) {
                new RethFlyweight().wrap(ByteBuffer.wrap(b), op.offsetOf(ExtensionHeader.RETH)).set(address, rkey, length);
            }
            into.add(b);
        }
    }

    /** One to three kinds of damage, most of it to the headers, some to the fields that decide where memory is written. */
    private byte[] damage(Random random, byte[] packet) {
        byte[] b = packet;
        ByteBuffer bb = ByteBuffer.wrap(b);
        Opcode op = Opcode.of(b[0] & 0xFF);
        int kinds = 1 + random.nextInt(3);
        for (int k = 0; k < kinds; k++) {
            int headers = op.headerLength();
            switch (random.nextInt(9)) {
                case 0 -> b[random.nextInt(Math.min(b.length, headers + 8))] ^= (byte) (1 << random.nextInt(8));
                case 1 -> b[random.nextInt(Math.min(b.length, headers + 8))] = (byte) random.nextInt(256);
                case 2 -> b[0] = (byte) (random.nextBoolean() ? Opcode.values()[random.nextInt(Opcode.values().length)].code()
                        : random.nextInt(256));
                case 3 -> b[1] = (byte) (b[1] & 0xCF | random.nextInt(4) << 4); // the pad count
                case 4 -> b = Arrays.copyOf(b, Math.max(BthFlyweight.LENGTH + 4, b.length - 1 - random.nextInt(b.length)));
                case 5 -> b = Arrays.copyOf(b, b.length + 4 * (1 + random.nextInt(300)));
                case 6, 7 -> {
                    // Where the request points: just past either end of the region, or anywhere, with any length.
                    int at = op.has(ExtensionHeader.RETH) ? op.offsetOf(ExtensionHeader.RETH)
                            : op.has(ExtensionHeader.ATOMIC_ETH) ? op.offsetOf(ExtensionHeader.ATOMIC_ETH) : -1;
                    if (at >= 0 && at + 16 <= b.length) {
                        long edge = random.nextBoolean() ? va - 1 - random.nextInt(64) : va + REGION - random.nextInt(64);
                        bb = ByteBuffer.wrap(b);
                        bb.putLong(at, random.nextInt(8) == 0 ? random.nextLong() : edge);
                        if (random.nextBoolean()) {
                            bb.putInt(at + 12, random.nextInt(4) == 0 ? random.nextInt() : random.nextInt(256));
                        }
                        if (random.nextInt(8) == 0) {
                            bb.putInt(at + 8, mr.rkey() ^ (1 << random.nextInt(32)));
                        }
                    }
                }
                default -> {
                    // The PSN a little off, or far off.
                    int psn = random.nextBoolean() ? expectedPsn + random.nextInt(9) - 4 : random.nextInt(1 << 24);
                    bb = ByteBuffer.wrap(b);
                    new BthFlyweight().wrap(bb, 0).psn(psn & 0xFFFFFF);
                }
            }
            if (b.length < BthFlyweight.LENGTH || (op = Opcode.of(b[0] & 0xFF)) == null) {
                break; // no longer a request whose fields can be aimed
            }
        }
        return b;
    }
}
