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

    /**
     * ibv_reg_mr(pd, NULL, SIZE_MAX, access): an implicit on-demand MR, one MR over the whole address space. Its
     * L_Key and R_Key reach every address of the device's {@link Context#addressSpace() address space}: an access
     * through them needs the rights of {@code access} and a range inside one mapped, live segment, and each page
     * faults in at the NIC's first access to it as an ON_DEMAND MR's does. Its iova is 0 and its length -1 (SIZE_MAX,
     * 2^64 - 1, read unsigned); it has no memory of its own ({@link Mr#memory()} is null). Memory windows cannot be
     * bound to it, and it cannot be re-registered.
     *
     * @param access the MR's rights; must include {@link Access#ON_DEMAND}
     * @throws VerbsException EINVAL when {@code access} lacks ON_DEMAND or has bits that are refused; EOPNOTSUPP on a
     *                        device whose ODP caps have no {@link OdpCapabilities#SUPPORT_IMPLICIT}
     */
    default Mr regMrImplicit(int access) throws VerbsException {
        throw new VerbsException(Errno.EOPNOTSUPP, "implicit on-demand MRs are not supported on " + this);
    }

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
