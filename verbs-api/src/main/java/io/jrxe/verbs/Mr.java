package io.jrxe.verbs;


import java.lang.foreign.MemorySegment;

/** A memory region (ibv_mr). */
public interface Mr extends AutoCloseable {
    /** The L_Key: what a local scatter/gather entry names this region by. */
    int lkey();

    /** The R_Key: equal to the L_Key when the MR grants remote access, else 0 (as rxe). */
    int rkey();

    /** The iova of the first byte (the memory's address, or 0 with ZERO_BASED or for an implicit MR). */
    long iova();

    /**
     * The region's length in bytes; -1 for an implicit MR ({@link Pd#regMrImplicit}): SIZE_MAX, 2^64 - 1, read
     * unsigned, as libibverbs reports it.
     */
    long length();

    /** The access bits ({@link Access}) the region was registered with. */
    int access();

    /** The registered memory; null for an implicit MR, which reaches the segments mapped into its address space. */
    MemorySegment memory();

    /** ibv_rereg_mr: null arguments keep what the MR has; the keys change. */
    void rereg(Pd pd, MemorySegment memory, Integer access) throws VerbsException;

    /**
     * ibv_advise_mr with IBV_ADVISE_MR_ADVICE_PREFETCH ({@code forWrite} false) or PREFETCH_WRITE ({@code forWrite}
     * true) on [iova, iova+length) of an MR registered with {@link Access#ON_DEMAND}: the device brings those pages in
     * ahead of use, so that no access faults on them. With {@code flush} (IBV_ADVISE_MR_FLAG_FLUSH) the pages are in
     * when the call returns; without, it returns at once and the device brings them in later.
     *
     * @throws VerbsException EINVAL for an MR not ON_DEMAND, a range outside the MR (for an implicit MR, one not inside
     *                        a single mapped segment), or PREFETCH_WRITE on an MR without LOCAL_WRITE; EFAULT for
     *                        freed memory; EOPNOTSUPP where the device has no on-demand paging
     */
    default void advisePrefetch(long iova, long length, boolean forWrite, boolean flush) throws VerbsException {
        throw new VerbsException(Errno.EOPNOTSUPP, "ibv_advise_mr is not supported on " + this);
    }

    /**
     * What the kernel's MMU notifier does to an ON_DEMAND MR when the memory behind [iova, iova+length) changes: the
     * device drops those pages' translations, and its next access to each faults it in again. An emulated device's
     * control: no verb of libibverbs does it.
     *
     * @throws VerbsException EINVAL for an MR not ON_DEMAND or a range outside the MR (for an implicit MR, one not
     *                        inside a single mapped segment); EOPNOTSUPP where the device cannot be told
     */
    default void invalidate(long iova, long length) throws VerbsException {
        throw new VerbsException(Errno.EOPNOTSUPP, "invalidating the pages of " + this + " is not supported");
    }

    @Override
    void close() throws VerbsException;
}
