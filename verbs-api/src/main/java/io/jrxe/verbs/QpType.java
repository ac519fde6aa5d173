package io.jrxe.verbs;

/** The QP transport types jrxe implements (the values are libibverbs' enum ibv_qp_type). */
public enum QpType {
    /** Reliable connected: acknowledged, retransmitted, ordered; every operation. */
    RC(2),
    /** Unreliable connected: SEND and RDMA WRITE, no acknowledgement. */
    UC(3),
    /** Unreliable datagram: SENDs of one MTU at most, each to an address handle. */
    UD(4);

    private final int verbsValue;

    QpType(int verbsValue) {
        this.verbsValue = verbsValue;
    }

    /** The value of libibverbs' enum ibv_qp_type. */
    public int verbsValue() {
        return verbsValue;
    }
}
