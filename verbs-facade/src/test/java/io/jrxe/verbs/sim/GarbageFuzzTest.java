package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.US;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tens of thousands of garbage packets (random bytes, random headers, mutations of real
 * packets), drawn from a seeded Random so a failure replays. No exception may escape a NIC
 * engine: the virtual time loop that runs them all must never throw. A second, sacrificial QP
 * pair takes packets at any PSN (it may end in the error state, as the protocol allows); the
 * main pair only gets PSNs far outside its window, so it must stay usable, and is used after.
 */
class GarbageFuzzTest {
    static final int PACKETS = 20_000;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void garbageNeverThrowsAndTheQpStaysUsable(long seed) throws Exception {
        try (SimPair p = new SimPair(seed, new SimPair.Config(QpType.RC).timeout(8))) {
            SimPair.Side[] victim = p.anotherQpPair();
            List<byte[]> samples = realTraffic(p, victim);
            int[] mainQpns = {p.a.qp.qpNum(), p.b.qp.qpNum()};
            int[] victimQpns = {victim[0].qp.qpNum(), victim[1].qp.qpNum()};
            int basePsn = p.config.psn;
            Random rnd = new Random(seed * 7919);

            for (int i = 0; i < PACKETS; i++) {
                byte[] roce = switch (rnd.nextInt(4)) {
                    case 0 -> randomBytes(rnd);
                    case 1 -> randomHeaders(rnd, rnd.nextBoolean() ? mainQpns : victimQpns);
                    default -> mutate(rnd, samples.get(rnd.nextInt(samples.size())));
                };
                ByteBuffer b = ByteBuffer.wrap(roce);
                BthFlyweight bth = new BthFlyweight().wrap(b, 0);
                int qpn = bth.destQpn();
                if (qpn == mainQpns[0] || qpn == mainQpns[1]) {
                    // Far ahead of, or far behind, anything the main pair sent or expects.
                    int offset = 0x200000 + rnd.nextInt(0x400000);
                    bth.psn((basePsn + (rnd.nextBoolean() ? offset : -offset)) & 0xFFFFFF);
                }
                boolean toB = rnd.nextBoolean();
                Forge.inject(p, toB ? p.a : p.b, toB ? p.b : p.a, roce);
                if (i % 64 == 63) {
                    p.run(20 * US); // any exception from an engine surfaces here
                }
                if (i % 256 == 255) {
                    keepVictimBusy(p, victim);
                }
            }
            p.run(100 * MS, () -> onBoth(p, Counter.DROP_MALFORMED) > 0 && onBoth(p, Counter.DROP_UNKNOWN_QPN) > 0
                    && onBoth(p, Counter.DROP_GHOST_ACK) > 0);

            assertThat(onBoth(p, Counter.DROP_MALFORMED)).isPositive();
            assertThat(onBoth(p, Counter.DROP_UNKNOWN_QPN)).isPositive();
            assertThat(onBoth(p, Counter.DROP_GHOST_ACK)).isPositive();
            BadPacketTest.stillWorks(p);
        }
    }

    /**
     * The sacrificial pair is brought back from the error state and given work, so that garbage
     * also meets requesters with packets outstanding and responders in the middle of messages.
     */
    private static void keepVictimBusy(SimPair p, SimPair.Side[] victim) throws Exception {
        if (victim[0].qp.query().state() != QpState.RTS || victim[1].qp.query().state() != QpState.RTS) {
            p.reconnect(victim[0], victim[1]);
        }
        SimPair.Side a = victim[0];
        SimPair.Side b = victim[1];
        b.qp.postRecv(recv(b, 500_000, 8000, 3));
        SendWr send = wr(a, WrOpcode.SEND, 0, 3000);
        send.next(rdma(a, WrOpcode.RDMA_READ, 100_000, 5000, b, 600_000));
        send.next().next(rdma(a, WrOpcode.RDMA_WRITE, 0, 4000, b, 600_000));
        a.qp.postSend(send);
    }

    /** Every kind of request and response between both pairs, logged for mutation. */
    private static List<byte[]> realTraffic(SimPair p, SimPair.Side[] victim) throws Exception {
        Wire wire = Wire.on(p);
        fill(p.a.memory, 0, 10_000, 5);
        for (SimPair.Side[] pair : new SimPair.Side[][] {{p.a, p.b}, {victim[0], victim[1]}}) {
            SimPair.Side a = pair[0];
            SimPair.Side b = pair[1];
            b.qp.postRecv(recv(b, 500_000, 8000, 1).next(recv(b, 510_000, 8000, 2)));
            SendWr[] wrs = {
                id(wr(a, WrOpcode.SEND, 0, 2500), 1),
                rdma(a, WrOpcode.RDMA_WRITE, 0, 2500, b, 600_000),
                rdma(a, WrOpcode.RDMA_READ, 100_000, 2500, b, 600_000),
                rdma(a, WrOpcode.RDMA_WRITE_WITH_IMM, 0, 3000, b, 600_000),
                rdma(a, WrOpcode.ATOMIC_CMP_AND_SWP, 64, 8, b, 700_000),
                rdma(a, WrOpcode.ATOMIC_FETCH_AND_ADD, 72, 8, b, 700_008),
                rdma(a, WrOpcode.FLUSH, 0, 64, b, 0),
                rdma(a, WrOpcode.ATOMIC_WRITE, 0, 8, b, 700_016),
            };
            for (int i = 0; i + 1 < wrs.length; i++) {
                wrs[i].next(wrs[i + 1]);
            }
            SendWr chain = wrs[0];
            a.qp.postSend(chain);
        }
        p.awaitCompletions(16, 4, 100 * MS);
        p.filter(null);
        List<byte[]> samples = new ArrayList<>();
        for (Wire.Packet pk : wire.packets()) {
            samples.add(pk.bytes());
        }
        assertThat(samples.stream().map(b -> b[0] & 0xFF).distinct().count()).isGreaterThan(12);
        return samples;
    }

    private static byte[] randomBytes(Random rnd) {
        byte[] b = new byte[16 + rnd.nextInt(300)];
        rnd.nextBytes(b);
        return b;
    }

    /** A BTH with any opcode (and mostly the default P_Key and TVer 0), then random bytes of a random length. */
    private static byte[] randomHeaders(Random rnd, int[] qpns) {
        int opcode = rnd.nextInt(4) == 0 ? rnd.nextInt(256) : Opcode.values()[rnd.nextInt(Opcode.values().length)].code();
        byte[] b = new byte[BthFlyweight.LENGTH + rnd.nextInt(120) + IcrcCalculator.LENGTH];
        rnd.nextBytes(b);
        new BthFlyweight().wrap(ByteBuffer.wrap(b), 0).set(opcode, rnd.nextBoolean(), rnd.nextInt(4),
                rnd.nextInt(8) == 0 ? rnd.nextInt(0x10000) : BthFlyweight.DEFAULT_PKEY, qpns[rnd.nextInt(qpns.length)],
                rnd.nextBoolean(), rnd.nextInt(1 << 24));
        return b;
    }

    /** A real packet with a few bytes changed and, sometimes, cut short or grown. */
    private static byte[] mutate(Random rnd, byte[] real) {
        byte[] b = real.clone();
        int flips = 1 + rnd.nextInt(4);
        for (int f = 0; f < flips; f++) {
            b[rnd.nextInt(b.length)] = (byte) rnd.nextInt();
        }
        if (rnd.nextInt(5) == 0) {
            b = java.util.Arrays.copyOf(b, Math.max(16, b.length + rnd.nextInt(64) - 32));
        }
        return b;
    }

    /** A counter of both devices together. */
    private static long onBoth(SimPair p, Counter c) {
        return p.counter(p.a, c) + p.counter(p.b, c);
    }
}
