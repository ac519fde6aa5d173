package io.jrxe.verbs.nativ.codec;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The two byte orders libibverbs' structs mix: host order for most fields, network order
 * (__be32, __be64) for immediate data, GUIDs and P_Keys. jrxe's ints hold the value as the wire
 * carries it, so an __be32 is written big-endian whatever the host.
 */
public final class NativeOrder {
    public static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    public static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    public static final ValueLayout.OfShort BE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private NativeOrder() {
    }

    /** A __be64 that a C function returned in a register (ibv_get_device_guid): its bytes in memory order, as a number. */
    public static long fromBe64(long raw) {
        return ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? raw : Long.reverseBytes(raw);
    }

    /** A __be16 read in host order: as a number. */
    public static int fromBe16(short raw) {
        short v = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? raw : Short.reverseBytes(raw);
        return v & 0xFFFF;
    }
}
