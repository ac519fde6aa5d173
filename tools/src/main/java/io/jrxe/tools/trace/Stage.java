package io.jrxe.tools.trace;

/**
 * The kinds of step a work request's trip is told in, each with the step of the course's six it belongs to
 * (1 the WR prepared, 2 the doorbell, 3 the NIC fetches the WQE, 4 the lkey checked in the MTT and the DMA, 5 the
 * packet built, 6 the ACK, the CQE and the poll), or 0 for what happens on the way (the remote side, a packet
 * arriving).
 */
enum Stage {
    WORK_REQUEST(1, "work request", "wr"),
    RECEIVE_POSTED(0, "receive posted", "recv_posted"),
    POST_SEND(1, "post_send", "post_send"),
    DOORBELL(2, "doorbell", "doorbell"),
    WQE_FETCH(3, "WQE fetch", "wqe_fetch"),
    PAGE_FAULT(0, "page fault (ODP)", "page_fault"),
    LOCAL_DMA(4, "lkey -> MTT, DMA", "dma"),
    PACKET_BUILT(5, "packet built", "packet"),
    PACKET_ARRIVES(0, "packet arrives", "packet_arrives"),
    REMOTE_DMA(0, "rkey -> MTT, DMA", "dma"),
    RESPONSE_BUILT(0, "response built", "packet"),
    ACK_BUILT(6, "ACK built", "packet"),
    ACK_READ(6, "ACK read", "ack"),
    NAK_READ(6, "NAK read", "nak"),
    RETRANSMIT(0, "retransmit", "retransmit"),
    DROPPED(0, "dropped", "dropped"),
    LOST(0, "lost on the wire", "lost"),
    COMPLETION(6, "completion", "completion"),
    CQE_WRITTEN(6, "CQE written", "cqe"),
    POLL(6, "poll", "poll");

    final int courseStep;
    final String label;
    /** The event's name in --json. */
    final String json;

    Stage(int courseStep, String label, String json) {
        this.courseStep = courseStep;
        this.label = label;
        this.json = json;
    }
}
