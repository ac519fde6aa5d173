package io.jrxe.wire.header;

import static io.jrxe.wire.header.HeaderField.field;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ImmDt (IBTA 9.3.7): 32 bits of immediate data in network order. */
class ImmDtFlyweightTest {
    static final FlyweightHarness<ImmDtFlyweight> HARNESS = new FlyweightHarness<>(ImmDtFlyweight::new, 4,
            List.of(field("immediate", 0, 32, f -> f.immediate() & 0xFFFF_FFFFL, (f, v) -> f.immediate((int) v))));

    @Test
    void immediateRoundTripsWithoutTouchingTheBytesAround() {
        HARNESS.checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void getterDecodesRandomBytesAsTheSpecLaysThemOut() {
        HARNESS.checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }
}
