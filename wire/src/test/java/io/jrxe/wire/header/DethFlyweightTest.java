package io.jrxe.wire.header;

import static io.jrxe.wire.header.HeaderField.field;

import java.util.List;
import org.junit.jupiter.api.Test;

/** DETH (IBTA 9.3.2): Q_Key, a reserved byte, source QP. */
class DethFlyweightTest {
    static final HeaderField<DethFlyweight> QKEY =
            field("qkey", 0, 32, f -> f.qkey() & 0xFFFF_FFFFL, (f, v) -> f.qkey((int) v));
    static final HeaderField<DethFlyweight> RESERVED =
            field("reserved", 32, 8, DethFlyweight::reserved, (f, v) -> f.reserved((int) v));
    static final HeaderField<DethFlyweight> SRC_QPN =
            field("srcQpn", 40, 24, DethFlyweight::srcQpn, (f, v) -> f.srcQpn((int) v));

    static final FlyweightHarness<DethFlyweight> HARNESS =
            new FlyweightHarness<>(DethFlyweight::new, 8, List.of(QKEY, RESERVED, SRC_QPN));

    @Test
    void everyFieldRoundTripsWithoutDisturbingItsNeighbours() {
        HARNESS.checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void gettersDecodeRandomBytesAsTheSpecLaysThemOut() {
        HARNESS.checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void setWritesQkeyAndSourceQpAndZeroesTheReservedByte() {
        HARNESS.checkSetAll(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS, List.of(QKEY, SRC_QPN),
                (f, v) -> f.set((int) v[0], (int) v[1]));
    }
}
