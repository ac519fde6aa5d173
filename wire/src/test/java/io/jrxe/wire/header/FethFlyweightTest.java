package io.jrxe.wire.header;

import static io.jrxe.wire.header.HeaderField.field;
import static io.jrxe.wire.header.HeaderField.readOnly;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FETH (IBTA annex A19): 26 reserved bits, the selectivity level (2 bits), the placement type (4 bits). */
class FethFlyweightTest {
    static final HeaderField<FethFlyweight> SELECTIVITY =
            readOnly("selectivityLevel", 26, 2, FethFlyweight::selectivityLevel);
    static final HeaderField<FethFlyweight> PLACEMENT =
            readOnly("placementType", 28, 4, FethFlyweight::placementType);

    static final FlyweightHarness<FethFlyweight> HARNESS = new FlyweightHarness<>(FethFlyweight::new, 4,
            List.of(field("bits", 0, 32, f -> f.bits() & 0xFFFF_FFFFL, (f, v) -> f.bits((int) v))),
            List.of(SELECTIVITY, PLACEMENT));

    @Test
    void rawBitsRoundTripAndDecodeIntoSelectivityAndPlacement() {
        HARNESS.checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void gettersDecodeRandomBytesAsTheSpecLaysThemOut() {
        HARNESS.checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS);
    }

    @Test
    void setWritesSelectivityAndPlacementAndZeroesTheReservedBits() {
        HARNESS.checkSetAll(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS, List.of(SELECTIVITY, PLACEMENT),
                (f, v) -> f.set((int) v[0], (int) v[1]));
    }

    @Test
    void wholeRegionPersistentFlushIsEncodedAsTheSpecShowsIt() {
        ByteBuffer buffer = ByteBuffer.allocate(4);
        new FethFlyweight().wrap(buffer, 0)
                .set(FethFlyweight.SELECTIVITY_WHOLE_REGION, FethFlyweight.PLACEMENT_PERSISTENCE);
        assertThat(buffer.array()).containsExactly(0x00, 0x00, 0x00, 0x12);
    }
}
