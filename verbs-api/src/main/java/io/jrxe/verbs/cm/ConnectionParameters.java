package io.jrxe.verbs.cm;

/**
 * What connect and accept ask for, and what a connection request or response carried
 * (librdmacm's rdma_conn_param).
 *
 * @param privateData        bytes for the peer's consumer: up to 56 in a connect of the TCP port space (the IP
 *                           CM header takes the rest of the REQ's 92), 196 in an accept, 180 in a UDP connect
 * @param responderResources RDMA READs and atomics this side lets the peer have outstanding towards it (0..255)
 * @param initiatorDepth     RDMA READs and atomics this side will have outstanding towards the peer (0..255)
 * @param flowControl        whether this side sends end-to-end credits (0 or 1)
 * @param retryCount         transport retries of the connection's QPs (0..7); only connect sets it
 * @param rnrRetryCount      RNR retries the peer's QP makes towards this side (0..7, 7 is forever)
 * @param srq                whether the QP receives from a shared receive queue
 * @param qpNumber           the QP to connect when the identifier has none of its own (0: the identifier's QP)
 */
public record ConnectionParameters(byte[] privateData, int responderResources, int initiatorDepth, int flowControl,
                                   int retryCount, int rnrRetryCount, boolean srq, int qpNumber) {
    /** Checks every range. */
    public ConnectionParameters {
        privateData = privateData == null ? new byte[0] : privateData.clone();
        check(responderResources, 255, "responder resources");
        check(initiatorDepth, 255, "initiator depth");
        check(flowControl, 1, "flow control");
        check(retryCount, 7, "retry count");
        check(rnrRetryCount, 7, "RNR retry count");
        if (qpNumber < 0 || qpNumber > 0xFFFFFF) {
            throw new IllegalArgumentException("QP number " + qpNumber + " is out of range 0..0xffffff");
        }
    }

    /** librdmacm's usual values: no private data, 1 READ each way, retry 7, RNR retry 7. */
    public static ConnectionParameters defaults() {
        return new ConnectionParameters(new byte[0], 1, 1, 0, 7, 7, false, 0);
    }

    /** The same with other private data. */
    public ConnectionParameters withPrivateData(byte[] data) {
        return new ConnectionParameters(data, responderResources, initiatorDepth, flowControl, retryCount,
                rnrRetryCount, srq, qpNumber);
    }

    /** The same with other READ/atomic limits. */
    public ConnectionParameters withResources(int responder, int initiator) {
        return new ConnectionParameters(privateData, responder, initiator, flowControl, retryCount, rnrRetryCount,
                srq, qpNumber);
    }

    /** The same with other retry counts. */
    public ConnectionParameters withRetries(int retry, int rnrRetry) {
        return new ConnectionParameters(privateData, responderResources, initiatorDepth, flowControl, retry,
                rnrRetry, srq, qpNumber);
    }

    /** A copy of the private data. */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    private static void check(int v, int max, String what) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(what + " " + v + " is out of range 0.." + max);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnectionParameters c && java.util.Arrays.equals(c.privateData, privateData)
                && c.responderResources == responderResources && c.initiatorDepth == initiatorDepth
                && c.flowControl == flowControl && c.retryCount == retryCount && c.rnrRetryCount == rnrRetryCount
                && c.srq == srq && c.qpNumber == qpNumber;
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(privateData) * 31 + qpNumber;
    }

    @Override
    public String toString() {
        return "ConnectionParameters[privateData=" + privateData.length + " bytes, responderResources="
                + responderResources + ", initiatorDepth=" + initiatorDepth + ", retryCount=" + retryCount
                + ", rnrRetryCount=" + rnrRetryCount + ", srq=" + srq + ", qpNumber=" + qpNumber + "]";
    }
}
