package io.jrxe.verbs;


import java.lang.foreign.MemorySegment;

/** A protection domain (ibv_pd): memory, QPs, SRQs and AHs are created in one. */
public interface Pd extends AutoCloseable {
    /** ibv_reg_mr: the MR's iova is the segment's address. */
    default Mr regMr(MemorySegment memory, int access) throws VerbsException {
        return regMr(memory, memory.address(), access);
    }

    /** ibv_reg_mr_iova: the MR's first byte is at {@code iova} in keys' address space. */
    Mr regMr(MemorySegment memory, long iova, int access) throws VerbsException;

    /** ibv_alloc_mw: a memory window of type 1 or 2, unbound. */
    Mw allocMw(int type) throws VerbsException;

    /** ibv_create_qp: a QP in RESET. */
    Qp createQp(QpInitAttributes init) throws VerbsException;

    /** ibv_create_srq: a receive queue several QPs may share. */
    Srq createSrq(int maxWr, int maxSge) throws VerbsException;

    /** ibv_create_ah: an address handle that UD send work requests name their destination by. */
    Ah createAh(AddressVector av) throws VerbsException;

    @Override
    void close() throws VerbsException;
}
