package io.jrxe.wire.header;

import static io.jrxe.wire.header.HeaderField.field;

import java.util.List;
import org.junit.jupiter.api.Test;

/** IETH (IBTA 9.3.8): the R_Key to invalidate. */
class IethFlyweightTest {
    static final FlyweightHarness<IethFlyweight> HARNESS = new FlyweightHarness<>(IethFlyweight::new, 4,
            List.of(field("rkey", 0, 32, f -> f.rkey() & 0xFFFF_FFFFL, (f, v) -> f.rkey((int) v))));

    @Test
    void rkeyRoundTripsWithoutTouchingTheBytesAround() {
        HARNESS.checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void getterDecodesRandomBytesAsTheSpecLaysThemOut() {
        HARNESS.checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }
}
