package io.jrxe.rnic.qp;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CUR_STATE ("assume the QP is in this state") may only be given from RTR, RTS, SQD or SQE
 * (ib_modify_qp_is_ok), and jrxe, which always knows the state, insists that it is the
 * current one: any other value is refused, saying both.
 */
class CurStateRuleTest {
    private final QpFixture fixture = new QpFixture();
    private final Random random = new Random(11);

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
        "RC, RTR, RTS", "UC, RTR, RTS", "UD, RTR, RTS",
        "RC, RTS, RTS", "UC, RTS, RTS", "UD, RTS, RTS",
        "RC, SQD, RTS", "UC, SQD, RTS", "UD, SQD, RTS",
        "UC, SQE, RTS", "UD, SQE, RTS",
    })
    void acceptedWhereOptionalWhenItNamesTheCurrentState(QpType type, QpState from, QpState to) throws RnicException {
        QueuePair qp = fixture.qpIn(type, from, random);
        QpAttributes a = new QpAttributes().state(to).curState(from);
        for (QpAttr required : IbtaQpTransitions.rule(from, to, type).required()) {
            QpFixture.setValid(a, required, from, random);
        }
        fixture.modify(qp, a);
        assertThat(qp.state()).isEqualTo(to);
        assertThat(qp.query().curState()).isEqualTo(to);
    }

    @ParameterizedTest(name = "{0} in RTS, CUR_STATE {1}")
    @EnumSource(QpType.class)
    void aCurStateThatIsNotTheCurrentStateIsRefusedSayingBoth(QpType type) {
        for (QpState wrong : QpState.values()) {
            if (wrong == QpState.RTS) {
                continue;
            }
            QueuePair qp = fixture.qpIn(type, QpState.RTS, random);
            String before = QpFixture.snapshot(qp);
            RnicException e = fixture.refused(qp, new QpAttributes().state(QpState.RTS).curState(wrong));
            assertThat(e.errno()).isEqualTo(Errno.EINVAL);
            assertThat(e.getMessage()).as("CUR_STATE %s", wrong)
                    .isEqualTo(String.format("modify QP 0x%06x: CUR_STATE says %s but the QP is in RTS", qp.qpn(), wrong));
            assertThat(qp.state()).isEqualTo(QpState.RTS);
            assertThat(QpFixture.snapshot(qp)).isEqualTo(before);
        }
    }

    @ParameterizedTest(name = "{0} from {1} -> {2}")
    @CsvSource({
        "RC, RESET, RESET", "UD, RESET, INIT",
        "RC, INIT, INIT", "UC, INIT, RTR", "UD, INIT, ERR",
        "RC, ERR, RESET", "UD, ERR, ERR",
    })
    void refusedFromResetInitAndErrEvenWhenTrue(QpType type, QpState from, QpState to) {
        QueuePair qp = fixture.qpIn(type, from, random);
        QpAttributes a = new QpAttributes().state(to).curState(from);
        for (QpAttr required : IbtaQpTransitions.rule(from, to, type).required()) {
            QpFixture.setValid(a, required, from, random);
        }
        String before = QpFixture.snapshot(qp);
        RnicException e = fixture.refused(qp, a);
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.getMessage()).isEqualTo(String.format(
                "modify QP 0x%06x %s -> %s: CUR_STATE may only be given in RTR, RTS, SQD or SQE", qp.qpn(), from, to));
        assertThat(qp.state()).isEqualTo(from);
        assertThat(QpFixture.snapshot(qp)).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0} from {1} -> {2}")
    @CsvSource({"RC, RTR, ERR", "UC, RTS, SQD", "UD, SQD, SQD", "RC, SQE, RESET"})
    void refusedFromTheRightStatesWhereTheTransitionDoesNotTakeIt(QpType type, QpState from, QpState to) {
        QueuePair qp = fixture.qpIn(type, from, random);
        RnicException e = fixture.refused(qp, new QpAttributes().state(to).curState(from));
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.getMessage()).startsWith(String.format("modify QP 0x%06x %s -> %s: CUR_STATE not allowed for %s",
                qp.qpn(), from, to, type));
        assertThat(qp.state()).isEqualTo(from);
    }
}
