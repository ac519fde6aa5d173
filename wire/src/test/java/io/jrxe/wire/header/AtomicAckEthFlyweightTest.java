package io.jrxe.wire.header;

import static io.jrxe.wire.header.HeaderField.field;

import java.util.List;
import org.junit.jupiter.api.Test;

/** AtomicAckETH (IBTA 9.3.6): the 64-bit original remote data. */
class AtomicAckEthFlyweightTest {
    static final FlyweightHarness<AtomicAckEthFlyweight> HARNESS = new FlyweightHarness<>(AtomicAckEthFlyweight::new, 8,
            List.of(field("originalData", 0, 64, AtomicAckEthFlyweight::originalData,
                    AtomicAckEthFlyweight::originalData)));

    @Test
    void originalDataRoundTripsWithoutTouchingTheBytesAround() {
        HARNESS.checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void getterDecodesRandomBytesAsTheSpecLaysThemOut() {
        HARNESS.checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }
}
