package io.jrxe.verbs;

/**
 * A QP's queue sizes (ibv_qp_cap): checked against the device's limits at creation.
 *
 * @param maxSendWr     send work requests that may be outstanding at once (max_send_wr)
 * @param maxRecvWr     receive work requests that may be posted at once (max_recv_wr; unused with an SRQ)
 * @param maxSendSge    scatter/gather entries of one send work request (max_send_sge)
 * @param maxRecvSge    scatter/gather entries of one receive work request (max_recv_sge)
 * @param maxInlineData bytes a send work request may carry inline (max_inline_data)
 */
public record QpCapabilities(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
    /** 16 sends and 16 receives of one entry each, no inline data: ibv_rc_pingpong's queues. */
    public static final QpCapabilities DEFAULT = new QpCapabilities(16, 16, 1, 1, 0);
}
