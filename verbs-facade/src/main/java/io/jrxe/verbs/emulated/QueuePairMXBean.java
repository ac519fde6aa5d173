package io.jrxe.verbs.emulated;

/**
 * A QP of a running jrxe device as JMX shows it, one attribute per column of `rdma resource show qp`
 * and the depths of its queues. Every read is a command on the device's NIC thread, so it never races
 * the engines; each read is a fresh snapshot, so read {@link #getSummary} for values that belong together.
 */
public interface QueuePairMXBean {
    String getDevice();

    int getQpn();

    /** RC, UC or UD. */
    String getType();

    /** RESET, INIT, RTR, RTS, SQD, SQE or ERR. */
    String getState();

    /** The connected peer's QPN (RC, UC). */
    int getDestQpn();

    /** The PSN of the next packet the requester sends. */
    int getSendPsn();

    /** The PSN the responder expects next. */
    int getReceivePsn();

    /** Send work requests posted and not yet completed. */
    int getSendQueueOutstanding();

    /** Receive work requests posted and not yet consumed (with an SRQ: the SRQ's). */
    int getReceiveQueueOutstanding();

    boolean isSharedReceiveQueue();

    /** The connected peer's IP address, or "" before RTR and for UD. */
    String getPeer();

    /**
     * All of the above from one snapshot, as `jrxe stat` prints it:
     * {@code lqpn 17 rqpn 18 type RC state RTS sq-psn 0x00a1b2 rq-psn 0x0c3d4e sq-wrs 0 rq-wrs 500 peer 127.0.0.2}.
     */
    String getSummary();
}
