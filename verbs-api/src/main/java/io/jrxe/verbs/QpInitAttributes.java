package io.jrxe.verbs;


/** What ibv_create_qp takes (ibv_qp_init_attr); {@code srq} may be null. */
public record QpInitAttributes(QpType type, Cq sendCq, Cq recvCq, Srq srq, QpCapabilities caps, boolean sqSigAll) {
    /** Checks that the type, both CQs and the capabilities are given. */
    public QpInitAttributes {
        if (type == null || sendCq == null || recvCq == null || caps == null) {
            throw new IllegalArgumentException("a QP needs a type, a send CQ, a receive CQ and capabilities");
        }
    }
}
