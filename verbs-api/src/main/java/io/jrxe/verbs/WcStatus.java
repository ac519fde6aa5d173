package io.jrxe.verbs;

/** Completion statuses (libibverbs' enum ibv_wc_status, same values). */
public enum WcStatus {
    SUCCESS,
    LOC_LEN_ERR,
    LOC_QP_OP_ERR,
    LOC_EEC_OP_ERR,
    LOC_PROT_ERR,
    WR_FLUSH_ERR,
    MW_BIND_ERR,
    BAD_RESP_ERR,
    LOC_ACCESS_ERR,
    REM_INV_REQ_ERR,
    REM_ACCESS_ERR,
    REM_OP_ERR,
    RETRY_EXC_ERR,
    RNR_RETRY_EXC_ERR,
    LOC_RDD_VIOL_ERR,
    REM_INV_RD_REQ_ERR,
    REM_ABORT_ERR,
    INV_EECN_ERR,
    INV_EEC_STATE_ERR,
    FATAL_ERR,
    RESP_TIMEOUT_ERR,
    GENERAL_ERR;

    private static final WcStatus[] VALUES = values();

    public int verbsValue() {
        return ordinal();
    }

    public static WcStatus of(int value) {
        return value >= 0 && value < VALUES.length ? VALUES[value] : GENERAL_ERR;
    }
}
