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

    @Override
    void close() throws VerbsException;
}
