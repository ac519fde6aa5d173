package io.jrxe.rnic.qp;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every cell of the QP state machine (7 x 7 states, RC, UC and UD), driven through
 * {@link QueuePair#modify} on a real device, against the table written out in
 * {@link IbtaQpTransitions}. For a transition that exists, a mask is accepted exactly when
 * required ⊆ mask ⊆ required ∪ optional ∪ {STATE}: the required set alone, each optional
 * attribute alone, all of them and seeded random subsets are accepted (and query-QP returns what
 * was set); leaving out any required attribute is refused naming it; adding any other attribute
 * is refused naming it. A transition that does not exist is refused with the list of the states
 * the QP may go to. Every refusal leaves the QP's state and attributes as they were.
 *
 * <p>ALT_PATH is optional in the table but jrxe has no alternate paths (neither has rxe's
 * datapath): a mask that the table allows with ALT_PATH is refused with EOPNOTSUPP, not with the
 * table's EINVAL, and still names ALT_PATH.
 */
class QpTransitionTableTest {
    private static final long BASE_SEED = Long.getLong("jrxe.test.seed", 0x1B7A_2024L);
    private static final int RANDOM_SUBSETS = 12;

    private final QpFixture fixture = new QpFixture();

    static Stream<Arguments> cells() {
        List<Arguments> cells = new ArrayList<>();
        long seed = BASE_SEED;
        for (QpType type : QpType.values()) {
            for (QpState from : QpState.values()) {
                for (QpState to : QpState.values()) {
                    cells.add(Arguments.of(type, from, to, seed++));
                }
            }
        }
        return cells.stream();
    }

    @ParameterizedTest(name = "{0} {1} -> {2} (seed {3})")
    @MethodSource("cells")
    void everyCellFollowsTheIbtaTable(QpType type, QpState from, QpState to, long seed) throws RnicException {
        IbtaQpTransitions.Rule rule = IbtaQpTransitions.rule(from, to, type);
        Random random = new Random(seed);
        String cell = String.format("%s %s -> %s (seed %d)", type, from, to, seed);
        if (rule == null) {
            checkRefusedTransition(type, from, to, random, cell);
            return;
        }
        accepts(type, from, to, rule.required(), random, cell + " required only");
        for (QpAttr optional : rule.optional()) {
            accepts(type, from, to, union(rule.required(), EnumSet.of(optional)), random, cell + " + " + optional);
        }
        accepts(type, from, to, union(rule.required(), rule.optional()), random, cell + " + every optional");
        List<QpAttr> optionals = new ArrayList<>(rule.optional());
        for (int i = 0; i < RANDOM_SUBSETS && !optionals.isEmpty(); i++) {
            EnumSet<QpAttr> mask = EnumSet.noneOf(QpAttr.class);
            mask.addAll(rule.required());
            for (QpAttr a : optionals) {
                if (random.nextBoolean()) {
                    mask.add(a);
                }
            }
            accepts(type, from, to, mask, random, cell + " random subset " + i);
        }

        QueuePair qp = fixture.qpIn(type, from, random);
        for (QpAttr required : rule.required()) {
            for (Set<QpAttr> with : List.of(rule.required(), union(rule.required(), rule.optional()))) {
                EnumSet<QpAttr> mask = EnumSet.copyOf(with);
                mask.remove(required);
                mask.remove(QpAttr.ALT_PATH);
                RnicException e = refusedUnchanged(qp, to, mask, random, cell + " without " + required);
                assertThat(e.getMessage()).as("%s without %s", cell, required)
                        .startsWith(String.format("modify QP 0x%06x %s -> %s", qp.qpn(), from, to))
                        .endsWith("missing " + required.name());
            }
        }
        Set<QpAttr> allowed = rule.allowed();
        for (QpAttr extra : QpAttr.values()) {
            if (allowed.contains(extra)) {
                continue;
            }
            RnicException e = refusedUnchanged(qp, to, union(rule.required(), EnumSet.of(extra)), random,
                    cell + " with extra " + extra);
            assertThat(e.getMessage()).as("%s with extra %s", cell, extra)
                    .startsWith(String.format("modify QP 0x%06x %s -> %s", qp.qpn(), from, to))
                    .containsPattern("(^|[^A-Z_])" + extra.name() + "([^A-Z_]|$)")
                    .containsAnyOf("not allowed", "may only be given");
        }
        fixture.destroy(qp);
    }

    private void checkRefusedTransition(QpType type, QpState from, QpState to, Random random, String cell) {
        QueuePair qp = fixture.qpIn(type, from, random);
        RnicException e = refusedUnchanged(qp, to, EnumSet.noneOf(QpAttr.class), random, cell);
        List<QpState> targets = IbtaQpTransitions.targets(from, type);
        assertThat(e.getMessage()).as(cell)
                .startsWith(String.format("modify QP 0x%06x %s -> %s: not allowed", qp.qpn(), from, to))
                .endsWith("may go to " + join(targets));
        // Attributes that some other transition would take change nothing.
        EnumSet<QpAttr> all = EnumSet.allOf(QpAttr.class);
        all.removeAll(EnumSet.of(QpAttr.STATE, QpAttr.CUR_STATE, QpAttr.CAP, QpAttr.ALT_PATH));
        RnicException withAll = refusedUnchanged(qp, to, all, random, cell + " with every attribute");
        assertThat(withAll.getMessage()).as(cell).contains("not allowed").endsWith("may go to " + join(targets));
        fixture.destroy(qp);
    }

    /** A fresh QP in {@code from} takes the mask (random valid values) and ends in {@code to} with them. */
    private void accepts(QpType type, QpState from, QpState to, Set<QpAttr> mask, Random random, String what)
            throws RnicException {
        QueuePair qp = fixture.qpIn(type, from, random);
        QpAttributes a = attributes(to, from, mask, random);
        if (mask.contains(QpAttr.ALT_PATH)) {
            String before = QpFixture.snapshot(qp);
            RnicException e = fixture.refused(qp, a);
            assertThat(e.errno()).as(what).isEqualTo(Errno.EOPNOTSUPP);
            assertThat(e.getMessage()).as(what).contains("ALT_PATH");
            assertThat(qp.state()).as(what).isEqualTo(from);
            assertThat(QpFixture.snapshot(qp)).as(what).isEqualTo(before);
        } else {
            fixture.modify(qp, a);
            assertThat(qp.state()).as(what).isEqualTo(to);
            QpAttributes q = qp.query();
            assertThat(q.state()).as(what).isEqualTo(to);
            for (QpAttr attr : mask) {
                if (attr == QpAttr.CUR_STATE) {
                    continue;
                }
                assertThat(q.has(attr)).as("%s: query has %s", what, attr).isTrue();
                assertThat(QpFixture.valueOf(q, attr)).as("%s: query %s", what, attr)
                        .isEqualTo(QpFixture.valueOf(a, attr));
            }
        }
        fixture.destroy(qp);
    }

    /** The QP refuses the mask with EINVAL (unless noted) and keeps its state and every attribute. */
    private RnicException refusedUnchanged(QueuePair qp, QpState to, Set<QpAttr> mask, Random random, String what) {
        QpState from = qp.state();
        String before = QpFixture.snapshot(qp);
        RnicException e = fixture.refused(qp, attributes(to, from, mask, random));
        assertThat(e.errno()).as("%s: %s", what, e.getMessage()).isEqualTo(Errno.EINVAL);
        assertThat(qp.state()).as(what).isEqualTo(from);
        assertThat(QpFixture.snapshot(qp)).as(what).isEqualTo(before);
        return e;
    }

    private static QpAttributes attributes(QpState to, QpState from, Set<QpAttr> mask, Random random) {
        QpAttributes a = new QpAttributes().state(to);
        for (QpAttr attr : mask) {
            if (attr != QpAttr.STATE) {
                QpFixture.setValid(a, attr, from, random);
            }
        }
        return a;
    }

    private static EnumSet<QpAttr> union(Set<QpAttr> a, Set<QpAttr> b) {
        EnumSet<QpAttr> u = EnumSet.noneOf(QpAttr.class);
        u.addAll(a);
        u.addAll(b);
        return u;
    }

    /** "RESET, INIT, RTR or ERR". */
    private static String join(List<QpState> states) {
        List<String> names = states.stream().map(Enum::name).toList();
        return names.size() == 1 ? names.getFirst()
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
    }
}
