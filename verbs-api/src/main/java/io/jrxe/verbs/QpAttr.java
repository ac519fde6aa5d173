package io.jrxe.verbs;

import java.util.ArrayList;
import java.util.List;

/**
 * The attributes a modify-QP call may carry, each a bit of an attribute mask (the values are
 * libibverbs' enum ibv_qp_attr_mask, so a mask means the same in jrxe and in C).
 */
public enum QpAttr {
    STATE(1),
    CUR_STATE(1 << 1),
    EN_SQD_ASYNC_NOTIFY(1 << 2),
    ACCESS_FLAGS(1 << 3),
    PKEY_INDEX(1 << 4),
    PORT(1 << 5),
    QKEY(1 << 6),
    AV(1 << 7),
    PATH_MTU(1 << 8),
    TIMEOUT(1 << 9),
    RETRY_CNT(1 << 10),
    RNR_RETRY(1 << 11),
    RQ_PSN(1 << 12),
    MAX_QP_RD_ATOMIC(1 << 13),
    ALT_PATH(1 << 14),
    MIN_RNR_TIMER(1 << 15),
    SQ_PSN(1 << 16),
    MAX_DEST_RD_ATOMIC(1 << 17),
    PATH_MIG_STATE(1 << 18),
    CAP(1 << 19),
    DEST_QPN(1 << 20);

    private final int bit;

    QpAttr(int bit) {
        this.bit = bit;
    }

    public int bit() {
        return bit;
    }

    public boolean in(int mask) {
        return (mask & bit) != 0;
    }

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

    public static int allBits() {
        int mask = 0;
        for (QpAttr a : values()) {
            mask |= a.bit;
        }
        return mask;
    }
}
