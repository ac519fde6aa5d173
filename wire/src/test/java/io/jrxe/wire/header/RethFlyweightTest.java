package io.jrxe.wire.header;

import static io.jrxe.wire.header.HeaderField.field;

import java.util.List;
import org.junit.jupiter.api.Test;

/** RETH (IBTA 9.3.3): virtual address, R_Key, DMA length. */
class RethFlyweightTest {
    static final HeaderField<RethFlyweight> VA =
            field("virtualAddress", 0, 64, RethFlyweight::virtualAddress, RethFlyweight::virtualAddress);
    static final HeaderField<RethFlyweight> RKEY =
            field("rkey", 64, 32, f -> f.rkey() & 0xFFFF_FFFFL, (f, v) -> f.rkey((int) v));
    /** Unsigned: lengths of 2^31 and more must read back positive, so the getter is not masked here. */
    static final HeaderField<RethFlyweight> DMA_LENGTH =
            field("dmaLength", 96, 32, RethFlyweight::dmaLength, RethFlyweight::dmaLength);

    static final FlyweightHarness<RethFlyweight> HARNESS =
            new FlyweightHarness<>(RethFlyweight::new, 16, List.of(VA, RKEY, DMA_LENGTH));

    @Test
    void everyFieldRoundTripsWithoutDisturbingItsNeighbours() {
        HARNESS.checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void gettersDecodeRandomBytesAsTheSpecLaysThemOut() {
        HARNESS.checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void setWritesAllThreeFields() {
        HARNESS.checkSetAll(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS, List.of(VA, RKEY, DMA_LENGTH),
                (f, v) -> f.set(v[0], (int) v[1], v[2]));
    }
}
