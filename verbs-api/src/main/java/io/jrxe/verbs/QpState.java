package io.jrxe.verbs;

/** The QP states of IBTA 10.3.1 (the values are libibverbs' enum ibv_qp_state). */
public enum QpState {
    RESET,
    INIT,
    RTR,
    RTS,
    SQD,
    SQE,
    ERR;

    public int verbsValue() {
        return ordinal();
    }
}
