package io.jrxe.tools.common;

import io.jrxe.wire.quantity.ByteSize;

/** Lets picocli read an option that is a size in bytes (4K, 1G); a bad value is a bad option (exit 1) naming the option. */
public final class ByteSizeConverter extends ParsedLongConverter {
    @Override
    protected long parse(String text) {
        return ByteSize.parse(text);
    }
}
