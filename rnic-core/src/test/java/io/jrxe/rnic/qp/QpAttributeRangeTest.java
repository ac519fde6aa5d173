package io.jrxe.rnic.qp;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each attribute's range: a value one past either end is refused naming the attribute, and the
 * QP keeps its state and every attribute, even those the same call set correctly (a modify is
 * all or nothing). The values one inside the ends are accepted.
 */
class QpAttributeRangeTest {
    private final QpFixture fixture = new QpFixture();
    private final Random random = new Random(5);

    /** One bad value: where it is given, what it is, and the words the refusal must contain. */
    record Case(String name, QpState from, QpState to, Consumer<QpAttributes> bad, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> outOfRange() throws Exception {
        byte[] dgid = GidEntry.gidOf(InetAddress.getByName("10.0.0.2"));
        return Stream.of(
                new Case("timeout 32", QpState.RTR, QpState.RTS, a -> a.timeout(32), "timeout 32 is out of range 0..31"),
                new Case("timeout -1", QpState.RTR, QpState.RTS, a -> a.timeout(-1), "timeout -1 is out of range 0..31"),
                new Case("retry_cnt 8", QpState.RTR, QpState.RTS, a -> a.retryCnt(8), "retry_cnt 8 is out of range 0..7"),
                new Case("retry_cnt -1", QpState.RTR, QpState.RTS, a -> a.retryCnt(-1), "retry_cnt -1 is out of range 0..7"),
                new Case("rnr_retry 8", QpState.RTR, QpState.RTS, a -> a.rnrRetry(8), "rnr_retry 8 is out of range 0..7"),
                new Case("rnr_retry -1", QpState.RTR, QpState.RTS, a -> a.rnrRetry(-1), "rnr_retry -1 is out of range 0..7"),
                new Case("min_rnr_timer 32", QpState.INIT, QpState.RTR, a -> a.minRnrTimer(32),
                        "min_rnr_timer 32 is out of range 0..31"),
                new Case("min_rnr_timer -1", QpState.INIT, QpState.RTR, a -> a.minRnrTimer(-1),
                        "min_rnr_timer -1 is out of range 0..31"),
                new Case("sq_psn 2^24", QpState.RTR, QpState.RTS, a -> a.sqPsn(1 << 24),
                        "sq_psn 16777216 is out of range 0..16777215"),
                new Case("sq_psn -1", QpState.RTR, QpState.RTS, a -> a.sqPsn(-1), "sq_psn -1 is out of range"),
                new Case("rq_psn 2^24", QpState.INIT, QpState.RTR, a -> a.rqPsn(1 << 24),
                        "rq_psn 16777216 is out of range 0..16777215"),
                new Case("rq_psn -1", QpState.INIT, QpState.RTR, a -> a.rqPsn(-1), "rq_psn -1 is out of range"),
                new Case("dest_qp_num 2^24", QpState.INIT, QpState.RTR, a -> a.destQpn(1 << 24),
                        "dest_qp_num 16777216 is out of range 0..16777215"),
                new Case("dest_qp_num -1", QpState.INIT, QpState.RTR, a -> a.destQpn(-1), "dest_qp_num -1 is out of range"),
                new Case("port 2", QpState.RESET, QpState.INIT, a -> a.port(2), "port 2 does not exist; the device has port 1"),
                new Case("port 0", QpState.RESET, QpState.INIT, a -> a.port(0), "port 0 does not exist"),
                new Case("P_Key index 1", QpState.RESET, QpState.INIT, a -> a.pkeyIndex(1),
                        "P_Key index 1 is out of range 0..0"),
                new Case("P_Key index -1", QpState.RESET, QpState.INIT, a -> a.pkeyIndex(-1), "P_Key index -1 is out of range"),
                new Case("AV GID index 2", QpState.INIT, QpState.RTR, a -> a.av(AddressVector.to(dgid, 2)),
                        "AV source GID index 2 is out of range 0..1"),
                new Case("AV GID index -1", QpState.INIT, QpState.RTR, a -> a.av(AddressVector.to(dgid, -1)),
                        "AV source GID index -1 is out of range"),
                new Case("AV port 2", QpState.INIT, QpState.RTR, a -> a.av(new AddressVector(dgid, 1, 64, 0, 0, 0, 2)),
                        "AV port 2 does not exist"),
                new Case("AV without a value", QpState.INIT, QpState.RTR, a -> a.av(null), "AV is set but has no value"),
                new Case("PATH_MTU without a value", QpState.INIT, QpState.RTR, a -> a.pathMtu(null),
                        "PATH_MTU is set but has no value"),
                new Case("max_rd_atomic 129", QpState.RTR, QpState.RTS, a -> a.maxRdAtomic(129),
                        "max_rd_atomic (the device's max_qp_init_rd_atom) 129 is out of range 0..128"),
                new Case("max_rd_atomic -1", QpState.RTR, QpState.RTS, a -> a.maxRdAtomic(-1), "max_rd_atomic"),
                new Case("max_dest_rd_atomic 129", QpState.INIT, QpState.RTR, a -> a.maxDestRdAtomic(129),
                        "max_dest_rd_atomic (the device's max_qp_rd_atom) 129 is out of range 0..128"),
                new Case("max_dest_rd_atomic -1", QpState.INIT, QpState.RTR, a -> a.maxDestRdAtomic(-1), "max_dest_rd_atomic"),
                new Case("path_mig_state 3", QpState.RTR, QpState.RTS, a -> a.pathMigState(3),
                        "path_mig_state 3 is out of range 0..2"),
                new Case("access ZERO_BASED", QpState.RESET, QpState.INIT, a -> a.accessFlags(Access.ZERO_BASED),
                        "access flags ZERO_BASED do not apply to a QP")
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("outOfRange")
    void outOfRangeIsRefusedNamingTheAttributeAndChangesNothing(Case c) {
        QueuePair qp = fixture.qpIn(QpType.RC, c.from(), random);
        String before = QpFixture.snapshot(qp);
        // Every required attribute with a valid value, then the bad one on top.
        QpAttributes a = new QpAttributes().state(c.to());
        for (QpAttr required : IbtaQpTransitions.rule(c.from(), c.to(), QpType.RC).required()) {
            QpFixture.setValid(a, required, c.from(), random);
        }
        c.bad().accept(a);
        RnicException e = fixture.refused(qp, a);
        assertThat(e.errno()).isEqualTo(Errno.EINVAL);
        assertThat(e.getMessage())
                .startsWith(String.format("modify QP 0x%06x %s -> %s: ", qp.qpn(), c.from(), c.to()))
                .contains(c.expected());
        assertThat(qp.state()).isEqualTo(c.from());
        assertThat(QpFixture.snapshot(qp)).isEqualTo(before);
    }

    @Test
    void theEndsOfEveryRangeAreAccepted() throws RnicException {
        QueuePair qp = fixture.qpIn(QpType.RC, QpState.INIT, random);
        fixture.modify(qp, new QpAttributes().state(QpState.RTR).av(QpFixture.randomAv(random)).pathMtu(Mtu.MTU_4096)
                .destQpn(0xFFFFFF).rqPsn(0xFFFFFF).maxDestRdAtomic(128).minRnrTimer(31));
        fixture.modify(qp, new QpAttributes().state(QpState.RTS).timeout(31).retryCnt(7).rnrRetry(7).sqPsn(0xFFFFFF)
                .maxRdAtomic(128).pathMigState(2));
        QueuePair low = fixture.qpIn(QpType.RC, QpState.INIT, random);
        fixture.modify(low, new QpAttributes().state(QpState.RTR).av(QpFixture.randomAv(random)).pathMtu(Mtu.MTU_256)
                .destQpn(0).rqPsn(0).maxDestRdAtomic(0).minRnrTimer(0));
        fixture.modify(low, new QpAttributes().state(QpState.RTS).timeout(0).retryCnt(0).rnrRetry(0).sqPsn(0)
                .maxRdAtomic(0).pathMigState(0));
        assertThat(qp.query().destQpn()).isEqualTo(0xFFFFFF);
        assertThat(low.query().pathMtu()).isEqualTo(Mtu.MTU_256);
    }

    @Test
    void theReadAtomicLimitsComeFromTheDevice() throws RnicException {
        QpFixture small = new QpFixture(DeviceAttributes.builder().maxQpInitRdAtom(4).maxQpRdAtom(8).build());
        QueuePair qp = small.qpIn(QpType.RC, QpState.INIT, random);
        QpAttributes rtr = new QpAttributes().state(QpState.RTR).av(QpFixture.randomAv(random)).pathMtu(Mtu.MTU_1024)
                .destQpn(7).rqPsn(7).minRnrTimer(1);
        assertThat(small.refused(qp, rtr.maxDestRdAtomic(9)).getMessage())
                .contains("max_dest_rd_atomic (the device's max_qp_rd_atom) 9 is out of range 0..8");
        small.modify(qp, rtr.maxDestRdAtomic(8));
        QpAttributes rts = new QpAttributes().state(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).sqPsn(1);
        assertThat(small.refused(qp, rts.maxRdAtomic(5)).getMessage())
                .contains("max_rd_atomic (the device's max_qp_init_rd_atom) 5 is out of range 0..4");
        small.modify(qp, rts.maxRdAtomic(4));
        assertThat(qp.query().maxRdAtomic()).isEqualTo(4);
        assertThat(qp.query().maxDestRdAtomic()).isEqualTo(8);
    }

    @ParameterizedTest(name = "ibv_mtu {0}")
    @ValueSource(ints = {-1, 0, 6, 7})
    void aPathMtuEnumValueOutside1To5DoesNotExist(int value) {
        assertThatThrownBy(() -> Mtu.ofVerbsValue(value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("path MTU enum value " + value + " is out of range 1..5 (256..4096 bytes)");
    }

    @Test
    void unknownMaskBitsAreRefused() {
        QueuePair qp = fixture.qpIn(QpType.UD, QpState.RTS, random);
        RnicException e = fixture.refused(qp, new QpAttributes().withMaskBits(1 << 21));
        assertThat(e.getMessage()).isEqualTo(String.format("modify QP 0x%06x: unknown attribute mask bits 0x200000", qp.qpn()));
        assertThat(qp.state()).isEqualTo(QpState.RTS);
    }

    @Test
    void alternatePathsAndResizingAreNotSupported() {
        QueuePair qp = fixture.qpIn(QpType.RC, QpState.RTS, random);
        RnicException alt = fixture.refused(qp, new QpAttributes().withMaskBits(QpAttr.ALT_PATH.bit()));
        assertThat(alt.errno()).isEqualTo(Errno.EOPNOTSUPP);
        assertThat(alt.getMessage()).contains("ALT_PATH: jrxe has no alternate paths");
        // CAP is in no transition's table, so the table refuses it first.
        RnicException cap = fixture.refused(qp, new QpAttributes().cap(QpFixture.CAPS));
        assertThat(cap.errno()).isEqualTo(Errno.EINVAL);
        assertThat(cap.getMessage()).contains("CAP not allowed for RC here");
    }
}
