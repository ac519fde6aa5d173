package io.jrxe.wire.header;

import static io.jrxe.wire.header.HeaderField.field;

import java.util.List;
import org.junit.jupiter.api.Test;

/** AtomicETH (IBTA 9.3.4): virtual address, R_Key, swap (or add) data, compare data. */
class AtomicEthFlyweightTest {
    static final HeaderField<AtomicEthFlyweight> VA =
            field("virtualAddress", 0, 64, AtomicEthFlyweight::virtualAddress, AtomicEthFlyweight::virtualAddress);
    static final HeaderField<AtomicEthFlyweight> RKEY =
            field("rkey", 64, 32, f -> f.rkey() & 0xFFFF_FFFFL, (f, v) -> f.rkey((int) v));
    static final HeaderField<AtomicEthFlyweight> SWAP_ADD =
            field("swapAdd", 96, 64, AtomicEthFlyweight::swapAdd, AtomicEthFlyweight::swapAdd);
    static final HeaderField<AtomicEthFlyweight> COMPARE =
            field("compare", 160, 64, AtomicEthFlyweight::compare, AtomicEthFlyweight::compare);

    static final FlyweightHarness<AtomicEthFlyweight> HARNESS =
            new FlyweightHarness<>(AtomicEthFlyweight::new, 28, List.of(VA, RKEY, SWAP_ADD, COMPARE));

    @Test
    void everyFieldRoundTripsWithoutDisturbingItsNeighbours() {
        HARNESS.checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void gettersDecodeRandomBytesAsTheSpecLaysThemOut() {
        HARNESS.checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void setWritesAllFourFields() {
        HARNESS.checkSetAll(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS, List.of(VA, RKEY, SWAP_ADD, COMPARE),
                (f, v) -> f.set(v[0], (int) v[1], v[2], v[3]));
    }
}
