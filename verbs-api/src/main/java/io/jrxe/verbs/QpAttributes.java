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

    public int mask() {
        return mask;
    }

    public boolean has(QpAttr attr) {
        return attr.in(mask);
    }

    private QpAttributes mark(QpAttr attr) {
        mask |= attr.bit();
        return this;
    }

    public QpAttributes state(QpState v) { state = v; return mark(QpAttr.STATE); }
    public QpAttributes curState(QpState v) { curState = v; return mark(QpAttr.CUR_STATE); }
    public QpAttributes sqdAsyncNotify(boolean v) { sqdAsyncNotify = v; return mark(QpAttr.EN_SQD_ASYNC_NOTIFY); }
    public QpAttributes accessFlags(int v) { accessFlags = v; return mark(QpAttr.ACCESS_FLAGS); }
    public QpAttributes pkeyIndex(int v) { pkeyIndex = v; return mark(QpAttr.PKEY_INDEX); }
    public QpAttributes port(int v) { port = v; return mark(QpAttr.PORT); }
    public QpAttributes qkey(int v) { qkey = v; return mark(QpAttr.QKEY); }
    public QpAttributes av(AddressVector v) { av = v; return mark(QpAttr.AV); }
    public QpAttributes pathMtu(Mtu v) { pathMtu = v; return mark(QpAttr.PATH_MTU); }
    public QpAttributes timeout(int v) { timeout = v; return mark(QpAttr.TIMEOUT); }
    public QpAttributes retryCnt(int v) { retryCnt = v; return mark(QpAttr.RETRY_CNT); }
    public QpAttributes rnrRetry(int v) { rnrRetry = v; return mark(QpAttr.RNR_RETRY); }
    public QpAttributes rqPsn(int v) { rqPsn = v; return mark(QpAttr.RQ_PSN); }
    public QpAttributes maxRdAtomic(int v) { maxRdAtomic = v; return mark(QpAttr.MAX_QP_RD_ATOMIC); }
    public QpAttributes minRnrTimer(int v) { minRnrTimer = v; return mark(QpAttr.MIN_RNR_TIMER); }
    public QpAttributes sqPsn(int v) { sqPsn = v; return mark(QpAttr.SQ_PSN); }
    public QpAttributes maxDestRdAtomic(int v) { maxDestRdAtomic = v; return mark(QpAttr.MAX_DEST_RD_ATOMIC); }
    public QpAttributes pathMigState(int v) { pathMigState = v; return mark(QpAttr.PATH_MIG_STATE); }
    public QpAttributes cap(QpCapabilities v) { cap = v; return mark(QpAttr.CAP); }
    public QpAttributes destQpn(int v) { destQpn = v; return mark(QpAttr.DEST_QPN); }

    /** Sets an attribute bit without a value: for tests of the rules, and alternate paths that jrxe refuses. */
    public QpAttributes withMaskBits(int bits) {
        mask |= bits;
        return this;
    }

    public QpState state() { return state; }
    public QpState curState() { return curState; }
    public boolean sqdAsyncNotify() { return sqdAsyncNotify; }
    public int accessFlags() { return accessFlags; }
    public int pkeyIndex() { return pkeyIndex; }
    public int port() { return port; }
    public int qkey() { return qkey; }
    public AddressVector av() { return av; }
    public Mtu pathMtu() { return pathMtu; }
    public int timeout() { return timeout; }
    public int retryCnt() { return retryCnt; }
    public int rnrRetry() { return rnrRetry; }
    public int rqPsn() { return rqPsn; }
    public int maxRdAtomic() { return maxRdAtomic; }
    public int minRnrTimer() { return minRnrTimer; }
    public int sqPsn() { return sqPsn; }
    public int maxDestRdAtomic() { return maxDestRdAtomic; }
    public int pathMigState() { return pathMigState; }
    public QpCapabilities cap() { return cap; }
    public int destQpn() { return destQpn; }

    @Override
    public String toString() {
        return "QpAttributes[" + QpAttr.names(mask) + "]";
    }
}
