package io.jrxe.verbs;

/**
 * Takes a QP from RESET to RTS in one call, with the attributes every connected program sets
 * (libibverbs makes a program write them as three ibv_modify_qp calls with about 13 attributes):
 * an RC or UC QP towards a {@link QpPeer}, a UD QP ready to send and receive datagrams. The defaults
 * are ibv_rc_pingpong's and perftest's; each has a setter.
 *
 * <pre>{@code
 * QpConnect.to(new QpPeer(peerQpn, peerPsn, peerGid)).localPsn(myPsn).apply(qp);
 * QpConnect.datagram(0x11111111).apply(udQp);
 * }</pre>
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>attribute</th><th>default</th></tr>
 *   <tr><td>port, P_Key index</td><td>1, 0</td></tr>
 *   <tr><td>access flags</td><td>REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC (RC), REMOTE_WRITE (UC)</td></tr>
 *   <tr><td>source GID index</td><td>1: a jrxe NIC's RoCE v2 GID of its first address, and rxe's for an IPv4 address</td></tr>
 *   <tr><td>path MTU</td><td>1024 (the active MTU of a 1500-byte interface)</td></tr>
 *   <tr><td>local PSN</td><td>0</td></tr>
 *   <tr><td>timeout, retry_cnt, rnr_retry, min_rnr_timer</td><td>14 (67 ms), 7, 7, 12 (0.64 ms)</td></tr>
 *   <tr><td>max_rd_atomic, max_dest_rd_atomic</td><td>1, 1</td></tr>
 *   <tr><td>Q_Key (UD)</td><td>as given</td></tr>
 * </table>
 *
 * The same builder gives the three steps' attributes ({@link #init}, {@link #rtr}, {@link #rts}) for a
 * caller that moves the QP itself. Not thread-safe; a builder may connect several QPs in turn.
 */
public final class QpConnect {
    private final QpPeer peer;
    private final int qkey;
    private int localPsn;
    private int port = 1;
    private int sgidIndex = 1;
    private Mtu pathMtu = Mtu.MTU_1024;
    private Integer accessFlags;
    private int timeout = 14;
    private int retryCount = 7;
    private int rnrRetry = 7;
    private int minRnrTimer = 12;
    private int maxRdAtomic = 1;
    private int maxDestRdAtomic = 1;
    private int hopLimit = 64;
    private int trafficClass;
    private int flowLabel;

    private QpConnect(QpPeer peer, int qkey) {
        this.peer = peer;
        this.qkey = qkey;
    }

    /** An RC or UC QP towards {@code peer}. */
    public static QpConnect to(QpPeer peer) {
        if (peer == null) {
            throw new IllegalArgumentException("connecting a QP needs its peer (QPN, PSN, GID)");
        }
        return new QpConnect(peer, 0);
    }

    /** A UD QP, its datagrams under {@code qkey}. */
    public static QpConnect datagram(int qkey) {
        return new QpConnect(null, qkey);
    }

    /** The first PSN this QP sends (what the peer sets as its expected PSN). */
    public QpConnect localPsn(int psn) {
        if (psn < 0 || psn > 0xFFFFFF) {
            throw new IllegalArgumentException("a PSN is 24 bits, not 0x" + Integer.toHexString(psn));
        }
        localPsn = psn;
        return this;
    }

    /** The device's port the QP uses (libibverbs numbers them from 1). */
    public QpConnect port(int number) {
        port = number;
        return this;
    }

    /** The source GID index: which of the port's GIDs the QP's packets come from. */
    public QpConnect sgidIndex(int index) {
        sgidIndex = index;
        return this;
    }

    /** The path MTU: the largest payload of the QP's packets. */
    public QpConnect pathMtu(Mtu mtu) {
        pathMtu = mtu;
        return this;
    }

    /** The remote access the QP allows (Access flags), instead of its type's default. */
    public QpConnect accessFlags(int flags) {
        accessFlags = flags;
        return this;
    }

    /** The local ACK timeout exponent (4.096 µs × 2^timeout; 0: infinite). */
    public QpConnect timeout(int exponent) {
        timeout = exponent;
        return this;
    }

    /** Retransmissions before a work request fails with RETRY_EXC_ERR (retry_cnt, 0..7). */
    public QpConnect retryCount(int count) {
        retryCount = count;
        return this;
    }

    /** RNR retries (7: for ever). */
    public QpConnect rnrRetry(int count) {
        rnrRetry = count;
        return this;
    }

    /** The RNR NAK timer this QP asks its peer to wait (IBTA's 5-bit code). */
    public QpConnect minRnrTimer(int code) {
        minRnrTimer = code;
        return this;
    }

    /** READs and atomics outstanding as initiator (max_rd_atomic) and as responder (max_dest_rd_atomic). */
    public QpConnect readAtomic(int initiator, int responder) {
        maxRdAtomic = initiator;
        maxDestRdAtomic = responder;
        return this;
    }

    /** The IP header of the QP's packets: hop limit, traffic class, flow label (which picks the UDP source port). */
    public QpConnect ipHeader(int hopLimit, int trafficClass, int flowLabel) {
        this.hopLimit = hopLimit;
        this.trafficClass = trafficClass;
        this.flowLabel = flowLabel;
        return this;
    }

    /**
     * RESET to INIT to RTR to RTS.
     *
     * @throws VerbsException the provider's refusal of a step (an attribute out of the device's range, a QP not in
     *                        RESET), whose message names the rule; EINVAL for a UD QP given a peer or a
     *                        connected one given none
     */
    public void apply(Qp qp) throws VerbsException {
        boolean datagram = peer == null;
        if (datagram != (qp.type() == QpType.UD)) {
            throw new VerbsException(Errno.EINVAL, datagram
                    ? "a " + qp.type() + " QP connects to a peer: use QpConnect.to(peer)"
                    : "a UD QP has no peer: use QpConnect.datagram(qkey)");
        }
        qp.modify(init(qp.type()));
        qp.modify(rtr(qp.type()));
        qp.modify(rts(qp.type()));
    }

    /** RESET to INIT: port, P_Key index, and the access flags (RC, UC) or the Q_Key (UD). */
    public QpAttributes init(QpType type) {
        QpAttributes a = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(port);
        return switch (type) {
            case UD -> a.qkey(qkey);
            case UC -> a.accessFlags(accessFlags != null ? accessFlags : Access.REMOTE_WRITE);
            case RC -> a.accessFlags(accessFlags != null ? accessFlags
                    : Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC);
        };
    }

    /** INIT to RTR: the path to the peer, its QPN and first PSN (RC, UC), the responder's limits (RC). */
    public QpAttributes rtr(QpType type) {
        QpAttributes a = new QpAttributes().state(QpState.RTR);
        if (type == QpType.UD) {
            return a;
        }
        a.av(new AddressVector(peer.gid(), sgidIndex, hopLimit, trafficClass, flowLabel, 0, port)).pathMtu(pathMtu)
                .destQpn(peer.qpn()).rqPsn(peer.psn());
        if (type == QpType.RC) {
            a.maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(minRnrTimer);
        }
        return a;
    }

    /** RTR to RTS: the first PSN this QP sends, and the requester's timeouts and limits (RC). */
    public QpAttributes rts(QpType type) {
        QpAttributes a = new QpAttributes().state(QpState.RTS).sqPsn(localPsn);
        if (type == QpType.RC) {
            a.timeout(timeout).retryCnt(retryCount).rnrRetry(rnrRetry).maxRdAtomic(maxRdAtomic);
        }
        return a;
    }
}
