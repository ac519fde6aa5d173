package io.jrxe.tools.common;

import io.jrxe.wire.quantity.TimeSpan;

/** Lets picocli read an option that is a span of time (2us, 10ms); a bad value is a bad option (exit 1) naming the option. */
public final class TimeSpanConverter extends ParsedLongConverter {
    @Override
    protected long parse(String text) {
        return TimeSpan.parse(text);
    }
}
