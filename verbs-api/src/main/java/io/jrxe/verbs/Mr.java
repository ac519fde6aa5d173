package io.jrxe.verbs;


import java.lang.foreign.MemorySegment;

/** A memory region (ibv_mr). */
public interface Mr extends AutoCloseable {
    /** The L_Key: what a local scatter/gather entry names this region by. */
    int lkey();

    /** The R_Key: equal to the L_Key when the MR grants remote access, else 0 (as rxe). */
    int rkey();

    /** The iova of the first byte (the memory's address, or 0 with ZERO_BASED). */
    long iova();

    /** The region's length in bytes. */
    long length();

    /** The access bits ({@link Access}) the region was registered with. */
    int access();

    /** The registered memory. */
    MemorySegment memory();

    /** ibv_rereg_mr: null arguments keep what the MR has; the keys change. */
    void rereg(Pd pd, MemorySegment memory, Integer access) throws VerbsException;

    @Override
    void close() throws VerbsException;
}
