package io.jrxe.verbs;


/**
 * The attributes of a modify-QP or query-QP call (ibv_qp_attr). Each setter also sets the
 * attribute's bit in {@link #mask()}, so a call carries exactly what was set, as the attr_mask
 * of ibv_modify_qp does.
 */
public final class QpAttributes {
    private int mask;
    private QpState state;
    private QpState curState;
    private boolean sqdAsyncNotify;
    private int accessFlags;
    private int pkeyIndex;
    private int port = 1;
    private int qkey;
    private AddressVector av;
    private Mtu pathMtu;
    private int timeout;
    private int retryCnt;
    private int rnrRetry;
    private int rqPsn;
    private int maxRdAtomic;
    private int minRnrTimer;
    private int sqPsn;
    private int maxDestRdAtomic;
    private int pathMigState;
    private QpCapabilities cap;
    private int destQpn;

    /** No attribute set yet. */
    public QpAttributes() {
    }

    /** The attribute mask: a bit for each attribute set (libibverbs' attr_mask). */
    public int mask() {
        return mask;
    }

    /** True when the attribute was set. */
    public boolean has(QpAttr attr) {
        return attr.in(mask);
    }

    private QpAttributes mark(QpAttr attr) {
        mask |= attr.bit();
        return this;
    }

    /** Sets the state to move to (after a query: the current state), and its bit in the mask; returns this. */
    public QpAttributes state(QpState v) { state = v; return mark(QpAttr.STATE); }
    /** Sets the state the caller believes the QP is in, and its bit in the mask; returns this. */
    public QpAttributes curState(QpState v) { curState = v; return mark(QpAttr.CUR_STATE); }
    /** Sets whether reaching SQD raises an SQ_DRAINED event, and its bit in the mask; returns this. */
    public QpAttributes sqdAsyncNotify(boolean v) { sqdAsyncNotify = v; return mark(QpAttr.EN_SQD_ASYNC_NOTIFY); }
    /**
     * Sets the remote operations the QP accepts ({@link Access} REMOTE_* bits), and its bit in the mask;
     * returns this.
     */
    public QpAttributes accessFlags(int v) { accessFlags = v; return mark(QpAttr.ACCESS_FLAGS); }
    /** Sets the P_Key table index, and its bit in the mask; returns this. */
    public QpAttributes pkeyIndex(int v) { pkeyIndex = v; return mark(QpAttr.PKEY_INDEX); }
    /** Sets the port number (1 unless set), and its bit in the mask; returns this. */
    public QpAttributes port(int v) { port = v; return mark(QpAttr.PORT); }
    /** Sets the Q_Key a UD QP accepts and sends with, and its bit in the mask; returns this. */
    public QpAttributes qkey(int v) { qkey = v; return mark(QpAttr.QKEY); }
    /** Sets the primary path: the peer's GID and the source GID index, and its bit in the mask; returns this. */
    public QpAttributes av(AddressVector v) { av = v; return mark(QpAttr.AV); }
    /** Sets the path MTU (at most the port's active MTU), and its bit in the mask; returns this. */
    public QpAttributes pathMtu(Mtu v) { pathMtu = v; return mark(QpAttr.PATH_MTU); }
    /**
     * Sets the local ACK timeout, 4.096 us times 2 to this power (0: none), and its bit in the mask; returns this.
     */
    public QpAttributes timeout(int v) { timeout = v; return mark(QpAttr.TIMEOUT); }
    /**
     * Sets how many times a request is sent again before RETRY_EXC_ERR (0..7), and its bit in the mask; returns this.
     */
    public QpAttributes retryCnt(int v) { retryCnt = v; return mark(QpAttr.RETRY_CNT); }
    /**
     * Sets how many RNR NAKs are waited out before RNR_RETRY_EXC_ERR (7: without end), and its bit in the
     * mask; returns this.
     */
    public QpAttributes rnrRetry(int v) { rnrRetry = v; return mark(QpAttr.RNR_RETRY); }
    /** Sets the first PSN expected from the peer (its sqPsn), and its bit in the mask; returns this. */
    public QpAttributes rqPsn(int v) { rqPsn = v; return mark(QpAttr.RQ_PSN); }
    /**
     * Sets how many READs and atomics this QP keeps outstanding as requester, and its bit in the mask; returns this.
     */
    public QpAttributes maxRdAtomic(int v) { maxRdAtomic = v; return mark(QpAttr.MAX_QP_RD_ATOMIC); }
    /**
     * Sets the RNR NAK timer code this QP gives peers that find no receive, and its bit in the mask; returns this.
     */
    public QpAttributes minRnrTimer(int v) { minRnrTimer = v; return mark(QpAttr.MIN_RNR_TIMER); }
    /** Sets the first PSN this QP sends, and its bit in the mask; returns this. */
    public QpAttributes sqPsn(int v) { sqPsn = v; return mark(QpAttr.SQ_PSN); }
    /**
     * Sets how many READs and atomics this QP accepts outstanding as responder, and its bit in the mask;
     * returns this.
     */
    public QpAttributes maxDestRdAtomic(int v) { maxDestRdAtomic = v; return mark(QpAttr.MAX_DEST_RD_ATOMIC); }
    /** Sets the path migration state, and its bit in the mask; returns this. */
    public QpAttributes pathMigState(int v) { pathMigState = v; return mark(QpAttr.PATH_MIG_STATE); }
    /** Sets the queue sizes, and its bit in the mask; returns this. */
    public QpAttributes cap(QpCapabilities v) { cap = v; return mark(QpAttr.CAP); }
    /** Sets the peer's QP number (RC and UC), and its bit in the mask; returns this. */
    public QpAttributes destQpn(int v) { destQpn = v; return mark(QpAttr.DEST_QPN); }

    /** Sets an attribute bit without a value: for tests of the rules, and alternate paths that jrxe refuses. */
    public QpAttributes withMaskBits(int bits) {
        mask |= bits;
        return this;
    }

    /** The state to move to (after a query: the current state). */
    public QpState state() { return state; }
    /** The state the caller believes the QP is in. */
    public QpState curState() { return curState; }
    /** Whether reaching SQD raises an SQ_DRAINED event. */
    public boolean sqdAsyncNotify() { return sqdAsyncNotify; }
    /** The remote operations the QP accepts ({@link Access} REMOTE_* bits). */
    public int accessFlags() { return accessFlags; }
    /** The P_Key table index. */
    public int pkeyIndex() { return pkeyIndex; }
    /** The port number (1 unless set). */
    public int port() { return port; }
    /** The Q_Key a UD QP accepts and sends with. */
    public int qkey() { return qkey; }
    /** The primary path: the peer's GID and the source GID index. */
    public AddressVector av() { return av; }
    /** The path MTU (at most the port's active MTU). */
    public Mtu pathMtu() { return pathMtu; }
    /** The local ACK timeout, 4.096 us times 2 to this power (0: none). */
    public int timeout() { return timeout; }
    /** How many times a request is sent again before RETRY_EXC_ERR (0..7). */
    public int retryCnt() { return retryCnt; }
    /** How many RNR NAKs are waited out before RNR_RETRY_EXC_ERR (7: without end). */
    public int rnrRetry() { return rnrRetry; }
    /** The first PSN expected from the peer (its sqPsn). */
    public int rqPsn() { return rqPsn; }
    /** How many READs and atomics this QP keeps outstanding as requester. */
    public int maxRdAtomic() { return maxRdAtomic; }
    /** The RNR NAK timer code this QP gives peers that find no receive. */
    public int minRnrTimer() { return minRnrTimer; }
    /** The first PSN this QP sends. */
    public int sqPsn() { return sqPsn; }
    /** How many READs and atomics this QP accepts outstanding as responder. */
    public int maxDestRdAtomic() { return maxDestRdAtomic; }
    /** The path migration state. */
    public int pathMigState() { return pathMigState; }
    /** The queue sizes. */
    public QpCapabilities cap() { return cap; }
    /** The peer's QP number (RC and UC). */
    public int destQpn() { return destQpn; }

    @Override
    public String toString() {
        return "QpAttributes[" + QpAttr.names(mask) + "]";
    }
}
