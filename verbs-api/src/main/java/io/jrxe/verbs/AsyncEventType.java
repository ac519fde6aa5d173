package io.jrxe.verbs;

/** Asynchronous events (libibverbs' enum ibv_event_type, same values). */
public enum AsyncEventType {
    /** A CQ overran: a completion found it full. */
    CQ_ERR,
    /** A QP met an error that is not a work request's, and went to the error state. */
    QP_FATAL,
    /** A QP received an invalid request, and went to the error state. */
    QP_REQ_ERR,
    /** A QP received a request that broke a local access rule, and went to the error state. */
    QP_ACCESS_ERR,
    /** The first packet arrived on a QP in RTR: communication is established. */
    COMM_EST,
    /** A QP in SQD has no send work outstanding. */
    SQ_DRAINED,
    /** A QP migrated to its alternate path. */
    PATH_MIG,
    /** A migration to the alternate path failed. */
    PATH_MIG_ERR,
    /** The device failed. */
    DEVICE_FATAL,
    /** A port became active. */
    PORT_ACTIVE,
    /** A port left the active state. */
    PORT_ERR,
    /** A port's LID changed. */
    LID_CHANGE,
    /** A port's P_Key table changed. */
    PKEY_CHANGE,
    /** A port's subnet manager changed. */
    SM_CHANGE,
    /** An SRQ met an error. */
    SRQ_ERR,
    /** An SRQ holds fewer receives than its armed limit. */
    SRQ_LIMIT_REACHED,
    /** A QP on an SRQ that went to the error state will consume no more of its receives. */
    QP_LAST_WQE_REACHED,
    /** The subnet manager asks clients to register again. */
    CLIENT_REREGISTER,
    /** A port's GID table changed. */
    GID_CHANGE;

    /** The value of libibverbs' enum ibv_event_type. */
    public int verbsValue() {
        return ordinal();
    }
}
