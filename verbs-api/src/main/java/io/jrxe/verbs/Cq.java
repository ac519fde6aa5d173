package io.jrxe.verbs;


/** A completion queue (ibv_cq). Polling fills the caller's reusable objects: no allocation. */
public interface Cq extends AutoCloseable {
    /** ibv_poll_cq: fills up to wcs.length completions, returns how many. */
    int poll(WorkCompletion[] wcs);

    /** ibv_req_notify_cq. */
    void requestNotify(boolean solicitedOnly);

    /** How many completions the CQ holds (at least what was asked for). */
    int capacity();

    /** ibv_resize_cq: at least {@code entries} entries, keeping the completions it holds. */
    void resize(int entries) throws VerbsException;

    @Override
    void close() throws VerbsException;
}
