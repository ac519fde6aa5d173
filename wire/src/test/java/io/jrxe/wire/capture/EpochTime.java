package io.jrxe.wire.capture;

import java.math.BigDecimal;

/** tshark's {@code frame.time_epoch} ("1795236206.491582000") as nanoseconds, without rounding through a double. */
final class EpochTime {
    private EpochTime() {
    }

    static long nanos(String epochSeconds) {
        return new BigDecimal(epochSeconds).movePointRight(9).longValueExact();
    }
}
