package io.jrxe.verbs;

/** The QP states of IBTA 10.3.1 (the values are libibverbs' enum ibv_qp_state). */
public enum QpState {
    /** Just created, or reset: no work may be posted. */
    RESET,
    /** Initialized: receives may be posted; nothing is sent or received yet. */
    INIT,
    /** Ready to receive: the destination is set; incoming packets are accepted. */
    RTR,
    /** Ready to send: send work requests are carried out. */
    RTS,
    /** Send queue drained: no new send work is started. */
    SQD,
    /** Send queue error (UD and UC): a send failed; receives still work. */
    SQE,
    /** Error: outstanding work requests are flushed with WR_FLUSH_ERR. */
    ERR;

    /** The value of libibverbs' enum ibv_qp_state. */
    public int verbsValue() {
        return ordinal();
    }
}
