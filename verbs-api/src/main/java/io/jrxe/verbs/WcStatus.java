package io.jrxe.verbs;

/** Completion statuses (libibverbs' enum ibv_wc_status, same values). */
public enum WcStatus {
    /** The work request completed. */
    SUCCESS("success"),
    /** Local length error: a message longer than the receive buffer, or longer than the QP or port allows. */
    LOC_LEN_ERR("local length error"),
    /** Local QP operation error: the work request is malformed or does not fit the QP. */
    LOC_QP_OP_ERR("local QP operation error"),
    /** Local EE context operation error (reliable datagram; jrxe never reports it). */
    LOC_EEC_OP_ERR("local EE context operation error"),
    /** Local protection error: an L_Key that does not cover the buffer, or lacks the needed access. */
    LOC_PROT_ERR("local protection error"),
    /** Flushed: the QP went to the error state before this work request ran. */
    WR_FLUSH_ERR("Work Request Flushed Error"),
    /** A memory window bind failed. */
    MW_BIND_ERR("memory management operation error"),
    /** The responder sent a response the requester did not expect. */
    BAD_RESP_ERR("bad response error"),
    /** Local access error on the responder side: an incoming message it may not place. */
    LOC_ACCESS_ERR("local access error"),
    /** The responder found the request invalid (for example a message longer than its receive). */
    REM_INV_REQ_ERR("remote invalid request error"),
    /** The responder refused access: a wrong R_Key, a range outside the region, or missing rights. */
    REM_ACCESS_ERR("remote access error"),
    /** The responder could not carry the operation out. */
    REM_OP_ERR("remote operation error"),
    /** No acknowledgement came after retry_cnt retransmissions. */
    RETRY_EXC_ERR("transport retry counter exceeded"),
    /** The responder had no receive posted, rnr_retry times over. */
    RNR_RETRY_EXC_ERR("RNR retry counter exceeded"),
    /** Local RDD violation (reliable datagram; jrxe never reports it). */
    LOC_RDD_VIOL_ERR("local RDD violation error"),
    /** Remote invalid RD request (reliable datagram; jrxe never reports it). */
    REM_INV_RD_REQ_ERR("remote invalid RD request"),
    /** The responder aborted the operation. */
    REM_ABORT_ERR("aborted error"),
    /** Invalid EE context number (reliable datagram; jrxe never reports it). */
    INV_EECN_ERR("invalid EE context number"),
    /** Invalid EE context state (reliable datagram; jrxe never reports it). */
    INV_EEC_STATE_ERR("invalid EE context state"),
    /** A fatal error of the device. */
    FATAL_ERR("fatal error"),
    /** The response timed out. */
    RESP_TIMEOUT_ERR("response timeout error"),
    /** An error none of the others describes; also what an unknown value maps to. */
    GENERAL_ERR("general error");

    private static final WcStatus[] VALUES = values();
    private final String description;

    WcStatus(String description) {
        this.description = description;
    }

    /** What libibverbs' ibv_wc_status_str says of it, word for word, so that messages read like rdma-core's. */
    public String description() {
        return description;
    }

    /** The value of libibverbs' enum ibv_wc_status. */
    public int verbsValue() {
        return ordinal();
    }

    /** The status of a libibverbs value; GENERAL_ERR for a value out of range. */
    public static WcStatus of(int value) {
        return value >= 0 && value < VALUES.length ? VALUES[value] : GENERAL_ERR;
    }
}
