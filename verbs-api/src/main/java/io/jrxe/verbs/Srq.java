package io.jrxe.verbs;

/** A shared receive queue (ibv_srq). */
public interface Srq extends AutoCloseable {
    /** How many receive work requests the SRQ holds. */
    int maxWr();

    /** How many scatter/gather entries one receive may have. */
    int maxSge();

    /** ibv_modify_srq with IBV_SRQ_LIMIT: SRQ_LIMIT_REACHED fires once when fewer WRs are posted; 0 disarms. */
    void armLimit(int limit) throws VerbsException;

    /** ibv_post_srq_recv. */
    void postRecv(io.jrxe.verbs.RecvWr wr) throws VerbsException;

    @Override
    void close() throws VerbsException;
}
