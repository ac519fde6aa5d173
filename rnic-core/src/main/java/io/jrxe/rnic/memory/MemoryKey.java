package io.jrxe.rnic.memory;

/**
 * An L_Key or R_Key: the low 8 bits are a variant ("key" in IBTA terms), the upper 24 bits the
 * index of the MPT entry. Each (re)registration or invalidation of an entry changes the variant,
 * so a key held from before is refused even though its index is in use again.
 *
 * <p>As in rxe, an MR's R_Key equals its L_Key when it grants any remote access and is 0
 * otherwise; a memory window has only an R_Key, from the same index space.
 */
public final class MemoryKey {
    public static final int INDEX_BITS = 24;
    public static final int MAX_INDEX = (1 << INDEX_BITS) - 1;

    private MemoryKey() {
    }

    public static int of(int index, int variant) {
        return index << 8 | (variant & 0xFF);
    }

    public static int index(int key) {
        return key >>> 8;
    }

    public static int variant(int key) {
        return key & 0xFF;
    }

    public static String format(int key) {
        return String.format("0x%08x (index %d, variant 0x%02x)", key, index(key), variant(key));
    }
}
