package io.jrxe.rnic.memory;

import io.jrxe.verbs.Access;

import java.lang.foreign.MemorySegment;

/**
 * One entry of the MPT (memory protection table): what the NIC knows about a memory region or a
 * memory window behind a key. For an MR: its PD, access rights, iova and length, and where its
 * pages are in the MTT. For a memory window: its range and rights, and the MR it is bound to.
 * Entries are reused slots: a key's variant must match the entry's to reach it.
 */
public final class MptEntry {
    public enum State {
        /** Slot not in use. */
        FREE,
        /** Usable: an MR that is registered, a memory window that is bound. */
        VALID,
        /** Allocated but not usable now: an invalidated MR or an unbound memory window. */
        INVALID
    }

    public static final int PAGE_SHIFT = 12;
    public static final long PAGE_SIZE = 1L << PAGE_SHIFT;

    private final int index;
    private int variant;
    KeyKind kind;
    State state = State.FREE;
    ProtectionDomain pd;
    int access;
    long iova;
    long length;
    // MR only
    MemorySegment segment;
    /** The segment as a ByteBuffer (MRs under 2 GiB), made once: copies to and from packets allocate nothing. */
    java.nio.ByteBuffer bufferView;
    long mttOffset;
    long pageCount;
    int firstPageOffset;
    int boundWindows;
    /**
     * An implicit MR's pages (it has no segment, no MTT run, iova 0 and length -1, SIZE_MAX read unsigned); null for
     * every other entry.
     */
    ImplicitPageTable implicitPages;
    // memory window only
    MptEntry boundMr;
    /** The MR iova the window's first byte is at. */
    long mrIova;

    MptEntry(int index, int initialVariant) {
        this.index = index;
        this.variant = initialVariant & 0xFF;
    }

    public int index() {
        return index;
    }

    public int variant() {
        return variant;
    }

    void nextVariant() {
        variant = (variant + 1) & 0xFF;
    }

    void setVariant(int v) {
        variant = v & 0xFF;
    }

    public int key() {
        return MemoryKey.of(index, variant);
    }

    public KeyKind kind() {
        return kind;
    }

    public State state() {
        return state;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public int access() {
        return access;
    }

    public long iova() {
        return iova;
    }

    /** The range's length in bytes; -1 for an implicit MR (its length is SIZE_MAX, 2^64 - 1, read unsigned). */
    public long length() {
        return length;
    }

    /** Whether the memory is paged on demand (an MR registered with Access.ON_DEMAND, or a window on one). */
    public boolean onDemand() {
        MptEntry mr = kind == KeyKind.MR ? this : boundMr;
        return mr != null && (mr.access & Access.ON_DEMAND) != 0;
    }

    /**
     * Whether this is an implicit MR: one ON_DEMAND MR over the whole address space (ibv_reg_mr(pd, NULL, SIZE_MAX,
     * ...)), reaching the segments mapped into the device's address space ({@link MappedSegments}).
     */
    public boolean isImplicit() {
        return implicitPages != null;
    }

    public boolean isWindow() {
        return kind != KeyKind.MR;
    }

    /** The R_Key an MR hands out: its key when it grants remote access, else 0 (as rxe does). */
    public int rkey() {
        return kind == KeyKind.MR && (access & Access.REMOTE) == 0 ? 0 : key();
    }

    public MemorySegment segment() {
        return kind == KeyKind.MR ? segment : boundMr == null ? null : boundMr.segment;
    }

    /** The memory as a ByteBuffer, or null when it is 2 GiB or larger, or an implicit MR's (it has no segment). */
    public java.nio.ByteBuffer bufferView() {
        MptEntry mr = kind == KeyKind.MR ? this : boundMr;
        if (mr == null || mr.segment == null || mr.segment.byteSize() > Integer.MAX_VALUE) {
            return null;
        }
        if (mr.bufferView == null) {
            mr.bufferView = mr.segment.asByteBuffer();
        }
        return mr.bufferView;
    }

    public long mttOffset() {
        return mttOffset;
    }

    public long pageCount() {
        return pageCount;
    }

    public int firstPageOffset() {
        return firstPageOffset;
    }

    public int boundWindows() {
        return boundWindows;
    }

    public MptEntry boundMr() {
        return boundMr;
    }

    /** True when [iova, iova+len) lies inside this entry's range (len 0 is inside when iova is). */
    public boolean covers(long va, long len) {
        long off = va - iova;
        return off >= 0 && len >= 0 && off <= length && len <= length - off;
    }

    /** Where this iova lies inside its page. */
    public long pageOffset(long va) {
        if (kind != KeyKind.MR) {
            return boundMr.pageOffset(mrIova + (va - iova));
        }
        return (firstPageOffset + (va - iova)) & (PAGE_SIZE - 1);
    }

    /**
     * MTT index of the page holding this iova (for an MR). An implicit MR has no MTT run: its iova is 0 and its
     * pages are the address space's, so the index is the page's number, the key of its {@link ImplicitPageTable}.
     */
    public long mttIndex(long va) {
        if (kind != KeyKind.MR) {
            return boundMr.mttIndex(mrIova + (va - iova));
        }
        return mttOffset + ((firstPageOffset + (va - iova)) >>> PAGE_SHIFT);
    }

    /**
     * The host address of the page at MTT index {@code mttIndex} of this MR: a page of its memory, or for an implicit
     * MR the address space's page of that number.
     */
    long pageAddress(long mttIndex) {
        if (implicitPages != null) {
            return mttIndex << PAGE_SHIFT;
        }
        return (segment.address() & ~(PAGE_SIZE - 1)) + (mttIndex - mttOffset) * PAGE_SIZE;
    }

    @Override
    public String toString() {
        if (kind == null) {
            return "free MPT entry " + index;
        }
        String what = switch (kind) {
            case MR -> implicitPages != null ? "implicit MR" : "MR";
            case MW_TYPE_1 -> "MW type 1";
            case MW_TYPE_2 -> "MW type 2";
        };
        return String.format("%s key 0x%08x", what, key());
    }
}
