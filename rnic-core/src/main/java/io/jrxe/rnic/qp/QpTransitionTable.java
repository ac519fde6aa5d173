package io.jrxe.rnic.qp;

import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;

import static io.jrxe.verbs.QpAttr.ACCESS_FLAGS;
import static io.jrxe.verbs.QpAttr.ALT_PATH;
import static io.jrxe.verbs.QpAttr.AV;
import static io.jrxe.verbs.QpAttr.CUR_STATE;
import static io.jrxe.verbs.QpAttr.DEST_QPN;
import static io.jrxe.verbs.QpAttr.EN_SQD_ASYNC_NOTIFY;
import static io.jrxe.verbs.QpAttr.MAX_DEST_RD_ATOMIC;
import static io.jrxe.verbs.QpAttr.MAX_QP_RD_ATOMIC;
import static io.jrxe.verbs.QpAttr.MIN_RNR_TIMER;
import static io.jrxe.verbs.QpAttr.PATH_MIG_STATE;
import static io.jrxe.verbs.QpAttr.PATH_MTU;
import static io.jrxe.verbs.QpAttr.PKEY_INDEX;
import static io.jrxe.verbs.QpAttr.PORT;
import static io.jrxe.verbs.QpAttr.QKEY;
import static io.jrxe.verbs.QpAttr.RETRY_CNT;
import static io.jrxe.verbs.QpAttr.RNR_RETRY;
import static io.jrxe.verbs.QpAttr.RQ_PSN;
import static io.jrxe.verbs.QpAttr.SQ_PSN;
import static io.jrxe.verbs.QpAttr.STATE;
import static io.jrxe.verbs.QpAttr.TIMEOUT;
import static io.jrxe.verbs.QpAttr.mask;
import static io.jrxe.verbs.QpState.ERR;
import static io.jrxe.verbs.QpState.INIT;
import static io.jrxe.verbs.QpState.RESET;
import static io.jrxe.verbs.QpState.RTR;
import static io.jrxe.verbs.QpState.RTS;
import static io.jrxe.verbs.QpState.SQD;
import static io.jrxe.verbs.QpState.SQE;
import static io.jrxe.verbs.QpType.RC;
import static io.jrxe.verbs.QpType.UC;
import static io.jrxe.verbs.QpType.UD;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Which QP state transitions exist, and for each QP type the attributes a transition requires
 * and the ones it also allows (IBTA 11.2.4.2 / table 91, the rules Linux keeps in
 * ib_modify_qp_is_ok). Every state may go to RESET and to ERR with no attributes (RESET -> ERR
 * too: the IBTA state diagram draws it, and Linux's table has allowed it since 2017).
 */
public final class QpTransitionTable {
    /** The rules of one transition for one QP type. */
    public record Rule(int required, int optional) {
    }

    private static final Map<QpState, Map<QpState, Map<QpType, Rule>>> TABLE = new EnumMap<>(QpState.class);

    static {
        for (QpState from : QpState.values()) {
            TABLE.put(from, new EnumMap<>(QpState.class));
            allTypes(from, RESET, 0, 0, 0, 0, 0, 0);
            allTypes(from, ERR, 0, 0, 0, 0, 0, 0);
        }
        allTypes(RESET, INIT,
                mask(PKEY_INDEX, PORT, ACCESS_FLAGS), 0,
                mask(PKEY_INDEX, PORT, ACCESS_FLAGS), 0,
                mask(PKEY_INDEX, PORT, QKEY), 0);
        allTypes(INIT, INIT,
                0, mask(PKEY_INDEX, PORT, ACCESS_FLAGS),
                0, mask(PKEY_INDEX, PORT, ACCESS_FLAGS),
                0, mask(PKEY_INDEX, PORT, QKEY));
        allTypes(INIT, RTR,
                mask(AV, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER), mask(ALT_PATH, ACCESS_FLAGS, PKEY_INDEX),
                mask(AV, PATH_MTU, DEST_QPN, RQ_PSN), mask(ALT_PATH, ACCESS_FLAGS, PKEY_INDEX),
                0, mask(PKEY_INDEX, QKEY));
        allTypes(RTR, RTS,
                mask(TIMEOUT, RETRY_CNT, RNR_RETRY, SQ_PSN, MAX_QP_RD_ATOMIC),
                mask(CUR_STATE, ALT_PATH, ACCESS_FLAGS, MIN_RNR_TIMER, PATH_MIG_STATE),
                mask(SQ_PSN), mask(CUR_STATE, ALT_PATH, ACCESS_FLAGS, PATH_MIG_STATE),
                mask(SQ_PSN), mask(CUR_STATE, QKEY));
        allTypes(RTS, RTS,
                0, mask(CUR_STATE, ACCESS_FLAGS, ALT_PATH, PATH_MIG_STATE, MIN_RNR_TIMER),
                0, mask(CUR_STATE, ACCESS_FLAGS, ALT_PATH, PATH_MIG_STATE),
                0, mask(CUR_STATE, QKEY));
        allTypes(RTS, SQD,
                0, mask(EN_SQD_ASYNC_NOTIFY),
                0, mask(EN_SQD_ASYNC_NOTIFY),
                0, mask(EN_SQD_ASYNC_NOTIFY));
        allTypes(SQD, RTS,
                0, mask(CUR_STATE, ALT_PATH, ACCESS_FLAGS, MIN_RNR_TIMER, PATH_MIG_STATE),
                0, mask(CUR_STATE, ALT_PATH, ACCESS_FLAGS, PATH_MIG_STATE),
                0, mask(CUR_STATE, QKEY));
        allTypes(SQD, SQD,
                0, mask(PORT, AV, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC, MAX_DEST_RD_ATOMIC, ALT_PATH,
                        ACCESS_FLAGS, PKEY_INDEX, MIN_RNR_TIMER, PATH_MIG_STATE),
                0, mask(AV, ALT_PATH, ACCESS_FLAGS, PKEY_INDEX, PATH_MIG_STATE),
                0, mask(PKEY_INDEX, QKEY));
        // SQE exists only for UC and UD: an RC QP's send errors take it to ERR.
        TABLE.get(SQE).put(RTS, new EnumMap<>(Map.of(
                UC, new Rule(0, mask(CUR_STATE, ACCESS_FLAGS)),
                UD, new Rule(0, mask(CUR_STATE, QKEY)))));
    }

    private QpTransitionTable() {
    }

    private static void allTypes(QpState from, QpState to, int rcRequired, int rcOptional,
                                 int ucRequired, int ucOptional, int udRequired, int udOptional) {
        Map<QpType, Rule> rules = new EnumMap<>(QpType.class);
        rules.put(RC, new Rule(rcRequired, rcOptional));
        rules.put(UC, new Rule(ucRequired, ucOptional));
        rules.put(UD, new Rule(udRequired, udOptional));
        TABLE.get(from).put(to, rules);
    }

    /** The rule for this transition and QP type, or null when the transition does not exist for it. */
    public static Rule rule(QpState from, QpState to, QpType type) {
        Map<QpType, Rule> rules = TABLE.get(from).get(to);
        return rules == null ? null : rules.get(type);
    }

    /** The states a QP of this type may go to from {@code from}. */
    public static List<QpState> targets(QpState from, QpType type) {
        List<QpState> targets = new ArrayList<>();
        for (QpState to : QpState.values()) {
            if (rule(from, to, type) != null) {
                targets.add(to);
            }
        }
        return targets;
    }

    /**
     * Checks a modify-QP attribute mask against the rules.
     *
     * @return null when allowed, else the reason, naming the rule that was broken
     */
    public static String check(int qpn, QpType type, QpState from, QpState to, int attrMask) {
        String transition = String.format("modify QP 0x%06x %s -> %s", qpn, from, to);
        Rule rule = rule(from, to, type);
        if (rule == null) {
            return transition + ": not allowed for " + type + "; from " + from + " a " + type + " QP may go to "
                    + join(targets(from, type));
        }
        if (CUR_STATE.in(attrMask) && from != RTR && from != RTS && from != SQD && from != SQE) {
            return transition + ": CUR_STATE may only be given in RTR, RTS, SQD or SQE";
        }
        int missing = rule.required() & ~attrMask;
        if (missing != 0) {
            return transition + ": " + type + " requires " + QpAttr.names(rule.required()) + "; missing "
                    + QpAttr.names(missing);
        }
        int extra = attrMask & ~(rule.required() | rule.optional() | STATE.bit());
        if (extra != 0) {
            return transition + ": " + QpAttr.names(extra) + " not allowed for " + type + " here; allowed: "
                    + (rule.required() != 0 ? "required " + QpAttr.names(rule.required()) + ", " : "")
                    + "optional " + QpAttr.names(rule.optional());
        }
        return null;
    }

    private static String join(List<QpState> states) {
        List<String> names = new ArrayList<>();
        for (QpState s : states) {
            names.add(s.name());
        }
        if (names.size() == 1) {
            return names.getFirst();
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
    }
}
