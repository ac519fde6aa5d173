package io.jrxe.rnic.qp;

import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.device.Port;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.queue.ReceiveWqe;
import io.jrxe.rnic.queue.SendWqe;
import io.jrxe.rnic.queue.SharedReceiveQueue;
import io.jrxe.rnic.queue.WorkQueue;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.psn.Psn;

/**
 * A queue pair as the NIC keeps it: its type, PD, CQs, optional SRQ, send and receive rings,
 * its state and every attribute modify-QP may set. {@link #modify} enforces IBTA's transition
 * rules ({@link QpTransitionTable}) and each attribute's range before anything changes, so a
 * refused call leaves the QP as it was. Owned by the NIC thread.
 */
public final class QueuePair {
    private final int qpn;
    private final QpType type;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final SharedReceiveQueue srq;
    private final QpCapabilities caps;
    private final boolean sqSigAll;
    private final WorkQueue<SendWqe> sq;
    private final WorkQueue<ReceiveWqe> rq;

    private volatile QpState state = QpState.RESET;
    // The modify-QP attributes, the same list as QpAttributes', kept here as plain fields on purpose: the
    // engines read several of them per packet (qkey, destQpn, pathMtu, timeout, ...), and holding them in a
    // QpAttributes object instead would cost a load of that object for every such read.
    private boolean sqdAsyncNotify;
    private int accessFlags;
    private int pkeyIndex;
    private int port = Port.NUMBER;
    private int qkey;
    private AddressVector av;
    private Mtu pathMtu = Mtu.MTU_1024;
    private int timeout;
    private int retryCnt;
    private int rnrRetry;
    private int rqPsn;
    private int maxRdAtomic;
    private int minRnrTimer;
    private int sqPsn;
    private int maxDestRdAtomic;
    private int pathMigState;
    private int destQpn;

    public QueuePair(int qpn, QpType type, ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq,
                     SharedReceiveQueue srq, QpCapabilities caps, boolean sqSigAll) {
        this.qpn = qpn;
        this.type = type;
        this.pd = pd;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.srq = srq;
        this.caps = caps;
        this.sqSigAll = sqSigAll;
        this.sq = new WorkQueue<>(caps.maxSendWr(), i -> new SendWqe(caps.maxSendSge(), caps.maxInlineData()));
        this.rq = srq != null ? null : new WorkQueue<>(Math.max(1, caps.maxRecvWr()), i -> new ReceiveWqe(Math.max(1, caps.maxRecvSge())));
    }

    /**
     * Applies a modify-QP call, or refuses it whole.
     *
     * @throws RnicException naming the transition rule or the attribute value that was wrong
     */
    public void modify(QpAttributes a, DeviceAttributes device, Port devicePort) throws RnicException {
        int mask = a.mask();
        int unknown = mask & ~QpAttr.allBits();
        if (unknown != 0) {
            throw RnicException.invalid(String.format("modify QP 0x%06x: unknown attribute mask bits 0x%x", qpn, unknown));
        }
        QpState from = state;
        if (QpAttr.CUR_STATE.in(mask) && a.curState() != from) {
            throw RnicException.invalid(String.format("modify QP 0x%06x: CUR_STATE says %s but the QP is in %s",
                    qpn, a.curState(), from));
        }
        QpState to = QpAttr.STATE.in(mask) ? a.state() : from;
        if (to == null) {
            throw RnicException.invalid(String.format("modify QP 0x%06x: STATE is set but has no value", qpn));
        }
        String broken = QpTransitionTable.check(qpn, type, from, to, mask);
        if (broken != null) {
            throw RnicException.invalid(broken);
        }
        checkValues(a, device, devicePort, String.format("modify QP 0x%06x %s -> %s", qpn, from, to));
        apply(a);
        if (to == QpState.RESET && from != QpState.RESET) {
            sq.clear();
            if (rq != null) {
                rq.clear();
            }
        }
        state = to;
    }

    private void checkValues(QpAttributes a, DeviceAttributes device, Port devicePort, String what) throws RnicException {
        int mask = a.mask();
        if (QpAttr.ALT_PATH.in(mask)) {
            throw new RnicException(Errno.EOPNOTSUPP, what + ": ALT_PATH: jrxe has no alternate paths (no APM), as rxe");
        }
        if (QpAttr.CAP.in(mask)) {
            throw new RnicException(Errno.EOPNOTSUPP, what + ": CAP: queue sizes are fixed at creation");
        }
        if (QpAttr.PORT.in(mask) && a.port() != Port.NUMBER) {
            throw RnicException.invalid(what + ": port " + a.port() + " does not exist; the device has port 1");
        }
        if (QpAttr.PKEY_INDEX.in(mask) && (a.pkeyIndex() < 0 || a.pkeyIndex() >= devicePort.pkeyTableLength())) {
            throw RnicException.invalid(what + ": P_Key index " + a.pkeyIndex() + " is out of range 0.."
                    + (devicePort.pkeyTableLength() - 1));
        }
        if (QpAttr.ACCESS_FLAGS.in(mask)) {
            int allowed = Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC | Access.LOCAL_WRITE
                    | Access.MW_BIND | Access.FLUSH_GLOBAL | Access.FLUSH_PERSISTENT;
            if ((a.accessFlags() & ~allowed) != 0) {
                throw RnicException.invalid(what + ": access flags " + Access.names(a.accessFlags() & ~allowed)
                        + " do not apply to a QP");
            }
        }
        if (QpAttr.AV.in(mask)) {
            AddressVector v = a.av();
            if (v == null) {
                throw RnicException.invalid(what + ": AV is set but has no value");
            }
            if (v.portNum() != Port.NUMBER) {
                throw RnicException.invalid(what + ": AV port " + v.portNum() + " does not exist; the device has port 1");
            }
            if (v.sgidIndex() < 0 || v.sgidIndex() >= devicePort.gids().size()) {
                throw RnicException.invalid(what + ": AV source GID index " + v.sgidIndex() + " is out of range 0.."
                        + (devicePort.gids().size() - 1));
            }
        }
        if (QpAttr.PATH_MTU.in(mask)) {
            if (a.pathMtu() == null) {
                throw RnicException.invalid(what + ": PATH_MTU is set but has no value");
            }
            if (a.pathMtu().bytes() > devicePort.maxMtu().bytes()) {
                throw RnicException.invalid(what + ": path MTU " + a.pathMtu().bytes() + " exceeds the port's max MTU "
                        + devicePort.maxMtu().bytes());
            }
        }
        range(QpAttr.TIMEOUT, mask, a.timeout(), 0, 31, what, "timeout");
        range(QpAttr.RETRY_CNT, mask, a.retryCnt(), 0, 7, what, "retry_cnt");
        range(QpAttr.RNR_RETRY, mask, a.rnrRetry(), 0, 7, what, "rnr_retry");
        range(QpAttr.MIN_RNR_TIMER, mask, a.minRnrTimer(), 0, 31, what, "min_rnr_timer");
        range(QpAttr.RQ_PSN, mask, a.rqPsn(), 0, Psn.MASK, what, "rq_psn");
        range(QpAttr.SQ_PSN, mask, a.sqPsn(), 0, Psn.MASK, what, "sq_psn");
        range(QpAttr.DEST_QPN, mask, a.destQpn(), 0, Psn.MASK, what, "dest_qp_num");
        range(QpAttr.MAX_QP_RD_ATOMIC, mask, a.maxRdAtomic(), 0, device.maxQpInitRdAtom(), what,
                "max_rd_atomic (the device's max_qp_init_rd_atom)");
        range(QpAttr.MAX_DEST_RD_ATOMIC, mask, a.maxDestRdAtomic(), 0, device.maxQpRdAtom(), what,
                "max_dest_rd_atomic (the device's max_qp_rd_atom)");
        if (QpAttr.PATH_MIG_STATE.in(mask) && (a.pathMigState() < 0 || a.pathMigState() > 2)) {
            throw RnicException.invalid(what + ": path_mig_state " + a.pathMigState() + " is out of range 0..2");
        }
    }

    private static void range(QpAttr attr, int mask, int value, int min, int max, String what, String name)
            throws RnicException {
        if (attr.in(mask) && (value < min || value > max)) {
            throw RnicException.invalid(String.format("%s: %s %d is out of range %d..%d", what, name, value, min, max));
        }
    }

    private void apply(QpAttributes a) {
        int mask = a.mask();
        if (QpAttr.EN_SQD_ASYNC_NOTIFY.in(mask)) sqdAsyncNotify = a.sqdAsyncNotify();
        if (QpAttr.ACCESS_FLAGS.in(mask)) accessFlags = a.accessFlags();
        if (QpAttr.PKEY_INDEX.in(mask)) pkeyIndex = a.pkeyIndex();
        if (QpAttr.PORT.in(mask)) port = a.port();
        if (QpAttr.QKEY.in(mask)) qkey = a.qkey();
        if (QpAttr.AV.in(mask)) av = a.av();
        if (QpAttr.PATH_MTU.in(mask)) pathMtu = a.pathMtu();
        if (QpAttr.TIMEOUT.in(mask)) timeout = a.timeout();
        if (QpAttr.RETRY_CNT.in(mask)) retryCnt = a.retryCnt();
        if (QpAttr.RNR_RETRY.in(mask)) rnrRetry = a.rnrRetry();
        if (QpAttr.RQ_PSN.in(mask)) rqPsn = a.rqPsn();
        if (QpAttr.MAX_QP_RD_ATOMIC.in(mask)) maxRdAtomic = a.maxRdAtomic();
        if (QpAttr.MIN_RNR_TIMER.in(mask)) minRnrTimer = a.minRnrTimer();
        if (QpAttr.SQ_PSN.in(mask)) sqPsn = a.sqPsn();
        if (QpAttr.MAX_DEST_RD_ATOMIC.in(mask)) maxDestRdAtomic = a.maxDestRdAtomic();
        if (QpAttr.PATH_MIG_STATE.in(mask)) pathMigState = a.pathMigState();
        if (QpAttr.DEST_QPN.in(mask)) destQpn = a.destQpn();
    }

    /** Every attribute, as query-QP returns them. */
    public QpAttributes query() {
        QpAttributes a = new QpAttributes().state(state).curState(state).sqdAsyncNotify(sqdAsyncNotify)
                .accessFlags(accessFlags).pkeyIndex(pkeyIndex).port(port).qkey(qkey).pathMtu(pathMtu)
                .timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry).rqPsn(rqPsn).maxRdAtomic(maxRdAtomic)
                .minRnrTimer(minRnrTimer).sqPsn(sqPsn).maxDestRdAtomic(maxDestRdAtomic).pathMigState(pathMigState).destQpn(destQpn).cap(caps);
        if (av != null) {
            a.av(av);
        }
        return a;
    }

    public int qpn() { return qpn; }
    public QpType type() { return type; }
    public ProtectionDomain pd() { return pd; }
    public CompletionQueue sendCq() { return sendCq; }
    public CompletionQueue recvCq() { return recvCq; }
    public SharedReceiveQueue srq() { return srq; }
    public QpCapabilities caps() { return caps; }
    public boolean sqSigAll() { return sqSigAll; }
    public WorkQueue<SendWqe> sendQueue() { return sq; }
    /** The receive ring, or null when the QP takes its receives from an SRQ. */
    public WorkQueue<ReceiveWqe> recvQueue() { return rq; }
    public QpState state() { return state; }
    /** Moves the QP to a state without the modify rules: the NIC's own transitions (to ERR, to SQE). */
    public void forceState(QpState s) { state = s; }
    public int accessFlags() { return accessFlags; }
    public int pkeyIndex() { return pkeyIndex; }
    public int qkey() { return qkey; }
    public AddressVector av() { return av; }
    public Mtu pathMtu() { return pathMtu; }
    public int timeout() { return timeout; }
    public int retryCnt() { return retryCnt; }
    public int rnrRetry() { return rnrRetry; }
    public int rqPsn() { return rqPsn; }
    public int sqPsn() { return sqPsn; }
    public int maxRdAtomic() { return maxRdAtomic; }
    public int maxDestRdAtomic() { return maxDestRdAtomic; }
    public int minRnrTimer() { return minRnrTimer; }
    public int destQpn() { return destQpn; }

    @Override
    public String toString() {
        return String.format("%s QP 0x%06x", type, qpn);
    }
}
