package io.jrxe.verbs;

/** A QP's queue sizes (ibv_qp_cap): checked against the device's limits at creation. */
public record QpCapabilities(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
}
