package io.jrxe.tools.common;

import io.jrxe.wire.quantity.BitRate;

/** Lets picocli read an option that is a rate (25G, 100M); a bad value is a bad option (exit 1) naming the option. */
public final class BitRateConverter extends ParsedLongConverter {
    @Override
    protected long parse(String text) {
        return BitRate.parse(text);
    }
}
