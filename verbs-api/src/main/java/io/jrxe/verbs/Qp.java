package io.jrxe.verbs;


/** A queue pair (ibv_qp): modify it through its states, then post work to it. */
public interface Qp extends AutoCloseable {
    /** The QP number: what a peer sets as its destination QPN. */
    int qpNum();

    /** The transport type the QP was created with. */
    QpType type();

    /** ibv_modify_qp: the attributes set on {@code attributes} are its mask. */
    void modify(QpAttributes attributes) throws VerbsException;

    /** ibv_query_qp: every attribute. */
    QpAttributes query() throws VerbsException;

    /**
     * ibv_post_send: posts a chain of work requests (linked with SendWr.next). When one is bad,
     * the ones before it are posted and the exception's errno and message name it (bad_wr).
     */
    void postSend(SendWr wr) throws VerbsException;

    /** ibv_post_recv: like {@link #postSend}, for receive work requests. */
    void postRecv(RecvWr wr) throws VerbsException;

    /**
     * ibv_attach_mcast: datagrams sent to the multicast group {@code gid} (a {@link MulticastGid}) reach this UD QP
     * too, when their Q_Key is its own. On RoCE the group is an IP multicast address and {@code lid} is ignored,
     * but a pair attached twice is one attachment, and detach must name the same pair. A QP with attachments
     * cannot be destroyed (EBUSY).
     *
     * @throws VerbsException EINVAL for a QP that is not UD or a GID that is not multicast; ENOMEM beyond the
     *                        device's max_mcast_grp, max_mcast_qp_attach or max_total_mcast_qp_attach
     */
    void attachMcast(byte[] gid, int lid) throws VerbsException;

    /**
     * ibv_detach_mcast: undoes {@link #attachMcast} of the same GID and LID.
     *
     * @throws VerbsException EINVAL when the pair is not attached
     */
    void detachMcast(byte[] gid, int lid) throws VerbsException;

    @Override
    void close() throws VerbsException;
}
