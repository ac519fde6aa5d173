package io.jrxe.verbs;

import java.util.ArrayList;
import java.util.List;

/**
 * The attributes a modify-QP call may carry, each a bit of an attribute mask (the values are
 * libibverbs' enum ibv_qp_attr_mask, so a mask means the same in jrxe and in C).
 */
public enum QpAttr {
    /** The state to move to. */
    STATE(1),
    /** The state the caller believes the QP is in. */
    CUR_STATE(1 << 1),
    /** Whether reaching SQD raises SQ_DRAINED. */
    EN_SQD_ASYNC_NOTIFY(1 << 2),
    /** The remote operations the QP accepts. */
    ACCESS_FLAGS(1 << 3),
    /** The P_Key table index. */
    PKEY_INDEX(1 << 4),
    /** The port number. */
    PORT(1 << 5),
    /** The Q_Key (UD). */
    QKEY(1 << 6),
    /** The primary path: destination GID and more. */
    AV(1 << 7),
    /** The path MTU. */
    PATH_MTU(1 << 8),
    /** The local ACK timeout. */
    TIMEOUT(1 << 9),
    /** Retransmissions before RETRY_EXC_ERR. */
    RETRY_CNT(1 << 10),
    /** RNR retries before RNR_RETRY_EXC_ERR. */
    RNR_RETRY(1 << 11),
    /** The first PSN expected from the peer. */
    RQ_PSN(1 << 12),
    /** READs and atomics this QP keeps outstanding as requester. */
    MAX_QP_RD_ATOMIC(1 << 13),
    /** The alternate path (jrxe refuses it). */
    ALT_PATH(1 << 14),
    /** The RNR NAK timer this QP asks peers to wait. */
    MIN_RNR_TIMER(1 << 15),
    /** The first PSN this QP sends. */
    SQ_PSN(1 << 16),
    /** READs and atomics this QP accepts outstanding as responder. */
    MAX_DEST_RD_ATOMIC(1 << 17),
    /** The path migration state. */
    PATH_MIG_STATE(1 << 18),
    /** The queue sizes. */
    CAP(1 << 19),
    /** The peer QP number (RC, UC). */
    DEST_QPN(1 << 20);

    private final int bit;

    QpAttr(int bit) {
        this.bit = bit;
    }

    /** The attribute's bit in a mask (libibverbs' enum ibv_qp_attr_mask). */
    public int bit() {
        return bit;
    }

    /** True when the mask has this attribute's bit. */
    public boolean in(int mask) {
        return (mask & bit) != 0;
    }

    /** The mask of these attributes. */
    public static int mask(QpAttr... attrs) {
        int mask = 0;
        for (QpAttr a : attrs) {
            mask |= a.bit;
        }
        return mask;
    }

    /** The attributes in a mask, in bit order; unknown bits are ignored. */
    public static List<QpAttr> of(int mask) {
        List<QpAttr> attrs = new ArrayList<>();
        for (QpAttr a : values()) {
            if (a.in(mask)) {
                attrs.add(a);
            }
        }
        return attrs;
    }

    /** "AV, PATH_MTU" for a mask; "none" for an empty one. */
    public static String names(int mask) {
        List<QpAttr> attrs = of(mask);
        if (attrs.isEmpty()) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        for (QpAttr a : attrs) {
            if (!sb.isEmpty()) {
                sb.append(", ");
            }
            sb.append(a.name());
        }
        return sb.toString();
    }

    /** The mask of every attribute. */
    public static int allBits() {
        int mask = 0;
        for (QpAttr a : values()) {
            mask |= a.bit;
        }
        return mask;
    }
}
