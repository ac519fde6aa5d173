package io.jrxe.wire.header;

import static io.jrxe.wire.header.HeaderField.field;

import java.util.List;
import org.junit.jupiter.api.Test;

/** AETH (IBTA 9.3.5): syndrome and MSN. */
class AethFlyweightTest {
    static final HeaderField<AethFlyweight> SYNDROME =
            field("syndrome", 0, 8, AethFlyweight::syndrome, (f, v) -> f.syndrome((int) v));
    static final HeaderField<AethFlyweight> MSN =
            field("msn", 8, 24, AethFlyweight::msn, (f, v) -> f.msn((int) v));

    static final FlyweightHarness<AethFlyweight> HARNESS =
            new FlyweightHarness<>(AethFlyweight::new, 4, List.of(SYNDROME, MSN));

    @Test
    void everyFieldRoundTripsWithoutDisturbingItsNeighbours() {
        HARNESS.checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void gettersDecodeRandomBytesAsTheSpecLaysThemOut() {
        HARNESS.checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void setWritesSyndromeAndMsn() {
        HARNESS.checkSetAll(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS, List.of(SYNDROME, MSN),
                (f, v) -> f.set((int) v[0], (int) v[1]));
    }
}
