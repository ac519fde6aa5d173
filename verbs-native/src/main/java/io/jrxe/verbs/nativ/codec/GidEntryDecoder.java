package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.GidType;
import io.jrxe.verbs.nativ.abi.IbvGidEntry;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/** libibverbs' ibv_gid_entry as jrxe's GidEntry. */
public final class GidEntryDecoder {
    /** enum ibv_gid_type. */
    public static final int IB = 0;
    public static final int ROCE_V1 = 1;
    public static final int ROCE_V2 = 2;

    private GidEntryDecoder() {
    }

    /** The entry, or null for an InfiniBand GID (jrxe's GidEntry describes RoCE GIDs only). */
    public static GidEntry decode(MemorySegment e) {
        int type = e.get(JAVA_INT, IbvGidEntry.GID_TYPE);
        if (type != ROCE_V1 && type != ROCE_V2) {
            return null;
        }
        byte[] gid = e.asSlice(IbvGidEntry.GID, 16).toArray(JAVA_BYTE);
        return new GidEntry(e.get(JAVA_INT, IbvGidEntry.GID_INDEX), gid, type == ROCE_V2 ? GidType.ROCE_V2 : GidType.ROCE_V1);
    }
}
