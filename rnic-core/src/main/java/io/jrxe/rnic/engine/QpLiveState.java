package io.jrxe.rnic.engine;

import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;

/**
 * One QP as a monitoring tool sees it at one moment (what `rdma resource show qp` prints for a kernel
 * device): its number, type and state, the peer's QPN and address, the PSN the requester sends next and
 * the PSN the responder expects, and the work requests waiting on its queues. Taken on the NIC thread
 * ({@link QpHandle#liveState}), so the values belong together.
 *
 * @param sendQueueOutstanding    send WRs posted and not yet completed
 * @param receiveQueueOutstanding receive WRs posted and not yet consumed; with an SRQ, the SRQ's
 * @param peer                    the connected peer's IP address (RC, UC after RTR), or null
 */
public record QpLiveState(int qpn, QpType type, QpState state, int destQpn, int sendPsn, int receivePsn,
                          int sendQueueOutstanding, int receiveQueueOutstanding, boolean sharedReceiveQueue, String peer) {
}
