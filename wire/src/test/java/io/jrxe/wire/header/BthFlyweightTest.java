package io.jrxe.wire.header;

import static io.jrxe.wire.header.HeaderField.field;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** BTH (IBTA 9.2, figure 70): every field where the spec puts it, and nowhere else. */
class BthFlyweightTest {
    static final HeaderField<BthFlyweight> OPCODE =
            field("opcode", 0, 8, BthFlyweight::opcode, (f, v) -> f.opcode((int) v));
    static final HeaderField<BthFlyweight> SE =
            field("solicitedEvent", 8, 1, f -> f.solicitedEvent() ? 1 : 0, (f, v) -> f.solicitedEvent((v & 1) != 0));
    static final HeaderField<BthFlyweight> MIG_REQ =
            field("migReq", 9, 1, f -> f.migReq() ? 1 : 0, (f, v) -> f.migReq((v & 1) != 0));
    static final HeaderField<BthFlyweight> PAD_COUNT =
            field("padCount", 10, 2, BthFlyweight::padCount, (f, v) -> f.padCount((int) v));
    static final HeaderField<BthFlyweight> TVER =
            field("transportVersion", 12, 4, BthFlyweight::transportVersion, (f, v) -> f.transportVersion((int) v));
    static final HeaderField<BthFlyweight> PKEY =
            field("pkey", 16, 16, BthFlyweight::pkey, (f, v) -> f.pkey((int) v));
    static final HeaderField<BthFlyweight> FECN =
            field("fecn", 32, 1, f -> f.fecn() ? 1 : 0, (f, v) -> f.fecn((v & 1) != 0));
    static final HeaderField<BthFlyweight> BECN =
            field("becn", 33, 1, f -> f.becn() ? 1 : 0, (f, v) -> f.becn((v & 1) != 0));
    static final HeaderField<BthFlyweight> RESERVED6 =
            field("reserved6", 34, 6, BthFlyweight::reserved6, (f, v) -> f.reserved6((int) v));
    static final HeaderField<BthFlyweight> DEST_QPN =
            field("destQpn", 40, 24, BthFlyweight::destQpn, (f, v) -> f.destQpn((int) v));
    static final HeaderField<BthFlyweight> ACK_REQUEST =
            field("ackRequest", 64, 1, f -> f.ackRequest() ? 1 : 0, (f, v) -> f.ackRequest((v & 1) != 0));
    static final HeaderField<BthFlyweight> RESERVED7 =
            field("reserved7", 65, 7, BthFlyweight::reserved7, (f, v) -> f.reserved7((int) v));
    static final HeaderField<BthFlyweight> PSN =
            field("psn", 72, 24, BthFlyweight::psn, (f, v) -> f.psn((int) v));

    static final FlyweightHarness<BthFlyweight> HARNESS = new FlyweightHarness<>(BthFlyweight::new, 12,
            List.of(OPCODE, SE, MIG_REQ, PAD_COUNT, TVER, PKEY, FECN, BECN, RESERVED6, DEST_QPN, ACK_REQUEST,
                    RESERVED7, PSN));

    @Test
    void everyFieldRoundTripsWithoutDisturbingItsNeighbours() {
        HARNESS.checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void gettersDecodeRandomBytesAsTheSpecLaysThemOut() {
        HARNESS.checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void setWritesItsArgumentsAndZeroesEveryOtherBit() {
        HARNESS.checkSetAll(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS,
                List.of(OPCODE, SE, PAD_COUNT, PKEY, DEST_QPN, ACK_REQUEST, PSN),
                (f, v) -> f.set((int) v[0], (v[1] & 1) != 0, (int) v[2], (int) v[3], (int) v[4], (v[5] & 1) != 0,
                        (int) v[6]));
    }

    @Test
    void setProducesTheSameBytesAsThePerFieldSetters() {
        long seed = FlyweightHarness.seed();
        Random random = new Random(seed);
        for (int iteration = 0; iteration < FlyweightHarness.ITERATIONS; iteration++) {
            int opcode = random.nextInt(256);
            boolean se = random.nextBoolean();
            int pad = random.nextInt(4);
            int pkey = random.nextInt(0x10000);
            int qpn = random.nextInt(1 << 24);
            boolean ack = random.nextBoolean();
            int psn = random.nextInt(1 << 24);
            byte[] whole = header(random, b -> b.set(opcode, se, pad, pkey, qpn, ack, psn));
            byte[] perField = header(random, b -> b.opcode(opcode).solicitedEvent(se).migReq(false).padCount(pad)
                    .transportVersion(0).pkey(pkey).fecn(false).becn(false).reserved6(0).destQpn(qpn)
                    .ackRequest(ack).reserved7(0).psn(psn));
            assertThat(whole).as("seed %d (replay: -Djrxe.seed=%d) iteration %d: set(%d, %b, %d, 0x%x, 0x%x, %b, %d)",
                    seed, seed, iteration, opcode, se, pad, pkey, qpn, ack, psn).isEqualTo(perField);
        }
    }

    @Test
    void settersReturnTheSameFlyweightForChaining() {
        BthFlyweight bth = new BthFlyweight().wrap(ByteBuffer.allocate(12), 0);
        assertThat(List.of(bth.opcode(1), bth.solicitedEvent(true), bth.migReq(true), bth.padCount(1),
                bth.transportVersion(1), bth.pkey(1), bth.fecn(true), bth.becn(true), bth.reserved6(1),
                bth.destQpn(1), bth.ackRequest(true), bth.reserved7(1), bth.psn(1), bth.set(0, false, 0, 0, 0, false, 0)))
                .allSatisfy(returned -> assertThat(returned).isSameAs(bth));
    }

    /** The 12 header bytes a writer leaves when the buffer around them starts as random noise. */
    private static byte[] header(Random random, java.util.function.Consumer<BthFlyweight> writer) {
        int offset = 1 + random.nextInt(16);
        byte[] noise = new byte[offset + 12 + 8];
        random.nextBytes(noise);
        ByteBuffer buffer = ByteBuffer.allocateDirect(noise.length).put(0, noise);
        writer.accept(new BthFlyweight().wrap(buffer, offset));
        byte[] bytes = new byte[noise.length];
        buffer.get(0, bytes);
        return Arrays.copyOfRange(bytes, offset, offset + 12);
    }
}
