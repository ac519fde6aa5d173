package io.jrxe.rnic.qp;

import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The expected QP transition table, written out here by hand as the test's oracle, independent
 * of {@link QpTransitionTable}: IBTA 1.x section 11.2.4.2 (the modify-QP attribute table) as
 * Linux keeps it in qp_state_table / ib_modify_qp_is_ok (drivers/infiniband/core/verbs.c), which
 * is what rxe enforces. Two decisions follow the kernel or the spec where they differ from a
 * naive reading:
 * <ul>
 *   <li>RESET may go to ERR: the IBTA state diagram draws RESET -> ERR, and current Linux
 *       (ib_modify_qp_is_ok's table, since 2017) allows it.</li>
 *   <li>SQE -> RTS exists for UC and UD only: IBTA 10.3.1 has the send queue error state for
 *       UC and UD QPs, an RC QP's errors take it to ERR, so an RC QP in SQE (which only a
 *       forced state can make) may only be reset or errored.</li>
 * </ul>
 * A row: from, to, the QP types it holds for, the required attributes, the optional ones.
 * A (from, to, type) not listed does not exist.
 */
final class IbtaQpTransitions {
    /** Required and optional attributes of one transition for one QP type. */
    record Rule(Set<QpAttr> required, Set<QpAttr> optional) {
        /** Everything a mask may carry: required, optional and STATE. */
        Set<QpAttr> allowed() {
            EnumSet<QpAttr> all = EnumSet.of(QpAttr.STATE);
            all.addAll(required);
            all.addAll(optional);
            return all;
        }
    }

    private static final String TABLE = """
            RESET RESET RC UC UD |                                                               |
            RESET ERR   RC UC UD |                                                               |
            RESET INIT  RC UC    | PKEY_INDEX PORT ACCESS_FLAGS                                  |
            RESET INIT  UD       | PKEY_INDEX PORT QKEY                                          |

            INIT  RESET RC UC UD |                                                               |
            INIT  ERR   RC UC UD |                                                               |
            INIT  INIT  RC UC    |                                                               | PKEY_INDEX PORT ACCESS_FLAGS
            INIT  INIT  UD       |                                                               | PKEY_INDEX PORT QKEY
            INIT  RTR   RC       | AV PATH_MTU DEST_QPN RQ_PSN MAX_DEST_RD_ATOMIC MIN_RNR_TIMER  | ALT_PATH ACCESS_FLAGS PKEY_INDEX
            INIT  RTR   UC       | AV PATH_MTU DEST_QPN RQ_PSN                                   | ALT_PATH ACCESS_FLAGS PKEY_INDEX
            INIT  RTR   UD       |                                                               | PKEY_INDEX QKEY

            RTR   RESET RC UC UD |                                                               |
            RTR   ERR   RC UC UD |                                                               |
            RTR   RTS   RC       | TIMEOUT RETRY_CNT RNR_RETRY SQ_PSN MAX_QP_RD_ATOMIC           | CUR_STATE ALT_PATH ACCESS_FLAGS MIN_RNR_TIMER PATH_MIG_STATE
            RTR   RTS   UC       | SQ_PSN                                                        | CUR_STATE ALT_PATH ACCESS_FLAGS PATH_MIG_STATE
            RTR   RTS   UD       | SQ_PSN                                                        | CUR_STATE QKEY

            RTS   RESET RC UC UD |                                                               |
            RTS   ERR   RC UC UD |                                                               |
            RTS   RTS   RC       |                                                               | CUR_STATE ACCESS_FLAGS ALT_PATH PATH_MIG_STATE MIN_RNR_TIMER
            RTS   RTS   UC       |                                                               | CUR_STATE ACCESS_FLAGS ALT_PATH PATH_MIG_STATE
            RTS   RTS   UD       |                                                               | CUR_STATE QKEY
            RTS   SQD   RC UC UD |                                                               | EN_SQD_ASYNC_NOTIFY

            SQD   RESET RC UC UD |                                                               |
            SQD   ERR   RC UC UD |                                                               |
            SQD   RTS   RC       |                                                               | CUR_STATE ALT_PATH ACCESS_FLAGS MIN_RNR_TIMER PATH_MIG_STATE
            SQD   RTS   UC       |                                                               | CUR_STATE ALT_PATH ACCESS_FLAGS PATH_MIG_STATE
            SQD   RTS   UD       |                                                               | CUR_STATE QKEY
            SQD   SQD   RC       |                                                               | PORT AV TIMEOUT RETRY_CNT RNR_RETRY MAX_QP_RD_ATOMIC MAX_DEST_RD_ATOMIC ALT_PATH ACCESS_FLAGS PKEY_INDEX MIN_RNR_TIMER PATH_MIG_STATE
            SQD   SQD   UC       |                                                               | AV ALT_PATH ACCESS_FLAGS PKEY_INDEX PATH_MIG_STATE
            SQD   SQD   UD       |                                                               | PKEY_INDEX QKEY

            SQE   RESET RC UC UD |                                                               |
            SQE   ERR   RC UC UD |                                                               |
            SQE   RTS   UC       |                                                               | CUR_STATE ACCESS_FLAGS
            SQE   RTS   UD       |                                                               | CUR_STATE QKEY

            ERR   RESET RC UC UD |                                                               |
            ERR   ERR   RC UC UD |                                                               |
            """;

    private static final Map<QpState, Map<QpState, Map<QpType, Rule>>> RULES = parse();

    private IbtaQpTransitions() {
    }

    /** The expected rule, or null when the transition does not exist for this QP type. */
    static Rule rule(QpState from, QpState to, QpType type) {
        return RULES.get(from).get(to).get(type);
    }

    /** The states a QP of this type may go to from {@code from}, in enum order. */
    static List<QpState> targets(QpState from, QpType type) {
        List<QpState> targets = new ArrayList<>();
        for (QpState to : QpState.values()) {
            if (rule(from, to, type) != null) {
                targets.add(to);
            }
        }
        return targets;
    }

    private static Map<QpState, Map<QpState, Map<QpType, Rule>>> parse() {
        Map<QpState, Map<QpState, Map<QpType, Rule>>> rules = new EnumMap<>(QpState.class);
        for (QpState from : QpState.values()) {
            Map<QpState, Map<QpType, Rule>> row = new EnumMap<>(QpState.class);
            for (QpState to : QpState.values()) {
                row.put(to, new EnumMap<>(QpType.class));
            }
            rules.put(from, row);
        }
        for (String line : TABLE.lines().map(String::strip).filter(l -> !l.isEmpty()).toList()) {
            String[] columns = line.split("\\|", -1);
            if (columns.length != 3) {
                throw new IllegalStateException("bad row: " + line);
            }
            String[] head = columns[0].strip().split("\\s+");
            QpState from = QpState.valueOf(head[0]);
            QpState to = QpState.valueOf(head[1]);
            Rule rule = new Rule(attrs(columns[1]), attrs(columns[2]));
            for (String type : Arrays.copyOfRange(head, 2, head.length)) {
                Rule previous = rules.get(from).get(to).put(QpType.valueOf(type), rule);
                if (previous != null) {
                    throw new IllegalStateException("row listed twice: " + line);
                }
            }
        }
        return rules;
    }

    private static Set<QpAttr> attrs(String column) {
        EnumSet<QpAttr> set = EnumSet.noneOf(QpAttr.class);
        for (String name : column.strip().split("\\s+")) {
            if (!name.isEmpty()) {
                set.add(QpAttr.valueOf(name));
            }
        }
        return set;
    }
}
