package io.jrxe.verbs;


/** A completion queue (ibv_cq). Polling fills the caller's reusable objects: no allocation. */
public interface Cq extends AutoCloseable {
    /** ibv_poll_cq: fills up to wcs.length completions, returns how many. */
    int poll(WorkCompletion[] wcs);

    /** ibv_req_notify_cq. */
    void requestNotify(boolean solicitedOnly);

    /**
     * For the CQ's one poller when it has nothing to do but wait: sleeps until the device writes a completion
     * to this CQ or {@code nanos} pass, and may return early. Returns false at once when this CQ cannot wake a
     * sleeper (a kernel device's, or a jrxe NIC that runs on the poller's own thread); the caller then waits
     * its own way. Not ibv_get_cq_event: no channel, no arming, nothing to acknowledge.
     */
    default boolean sleepUntilCompletion(long nanos) {
        return false;
    }

    /** How many completions the CQ holds (at least what was asked for). */
    int capacity();

    /** ibv_resize_cq: at least {@code entries} entries, keeping the completions it holds. */
    void resize(int entries) throws VerbsException;

    @Override
    void close() throws VerbsException;
}
