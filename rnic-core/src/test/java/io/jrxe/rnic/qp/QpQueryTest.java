package io.jrxe.rnic.qp;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Query-QP returns every attribute that modify-QP set, and keeps each until a later modify
 * changes it: an RC QP taken through RESET, INIT, RTR, RTS, SQD (changing everything SQD -> SQD
 * allows) and back to RTS.
 */
class QpQueryTest {
    private final QpFixture fixture = new QpFixture();

    @Test
    void queryReturnsEveryAttributeSet() throws RnicException {
        Random random = new Random(3);
        QueuePair qp = fixture.create(QpType.RC);
        QpAttributes fresh = qp.query();
        assertThat(fresh.state()).isEqualTo(QpState.RESET);
        assertThat(fresh.port()).isEqualTo(1);
        assertThat(fresh.cap()).isEqualTo(QpFixture.CAPS);

        int access = Access.LOCAL_WRITE | Access.REMOTE_READ;
        fixture.modify(qp, new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(access));
        AddressVector av = QpFixture.randomAv(random);
        fixture.modify(qp, new QpAttributes().state(QpState.RTR).av(av).pathMtu(Mtu.MTU_2048).destQpn(0x00ABCD)
                .rqPsn(0x123456).maxDestRdAtomic(16).minRnrTimer(12));
        fixture.modify(qp, new QpAttributes().state(QpState.RTS).timeout(14).retryCnt(6).rnrRetry(5).sqPsn(0x654321)
                .maxRdAtomic(8).pathMigState(1));
        fixture.modify(qp, new QpAttributes().state(QpState.SQD).sqdAsyncNotify(true));

        QpAttributes q = qp.query();
        assertThat(q.state()).isEqualTo(QpState.SQD);
        assertThat(q.curState()).isEqualTo(QpState.SQD);
        assertThat(q.sqdAsyncNotify()).isTrue();
        assertThat(q.accessFlags()).isEqualTo(access);
        assertThat(q.pkeyIndex()).isZero();
        assertThat(q.port()).isEqualTo(1);
        assertThat(q.av()).isEqualTo(av);
        assertThat(q.pathMtu()).isEqualTo(Mtu.MTU_2048);
        assertThat(q.destQpn()).isEqualTo(0x00ABCD);
        assertThat(q.rqPsn()).isEqualTo(0x123456);
        assertThat(q.maxDestRdAtomic()).isEqualTo(16);
        assertThat(q.minRnrTimer()).isEqualTo(12);
        assertThat(q.timeout()).isEqualTo(14);
        assertThat(q.retryCnt()).isEqualTo(6);
        assertThat(q.rnrRetry()).isEqualTo(5);
        assertThat(q.sqPsn()).isEqualTo(0x654321);
        assertThat(q.maxRdAtomic()).isEqualTo(8);
        assertThat(q.pathMigState()).isEqualTo(1);

        AddressVector moved = QpFixture.randomAv(random);
        int allRemote = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;
        fixture.modify(qp, new QpAttributes().state(QpState.SQD).port(1).av(moved).timeout(20).retryCnt(1).rnrRetry(2)
                .maxRdAtomic(3).maxDestRdAtomic(4).accessFlags(allRemote).pkeyIndex(0).minRnrTimer(30).pathMigState(2));
        fixture.modify(qp, new QpAttributes().state(QpState.RTS).curState(QpState.SQD));

        q = qp.query();
        assertThat(q.state()).isEqualTo(QpState.RTS);
        assertThat(q.av()).isEqualTo(moved);
        assertThat(q.timeout()).isEqualTo(20);
        assertThat(q.retryCnt()).isEqualTo(1);
        assertThat(q.rnrRetry()).isEqualTo(2);
        assertThat(q.maxRdAtomic()).isEqualTo(3);
        assertThat(q.maxDestRdAtomic()).isEqualTo(4);
        assertThat(q.accessFlags()).isEqualTo(allRemote);
        assertThat(q.minRnrTimer()).isEqualTo(30);
        assertThat(q.pathMigState()).isEqualTo(2);
        // Untouched since RTR and RTS.
        assertThat(q.pathMtu()).isEqualTo(Mtu.MTU_2048);
        assertThat(q.destQpn()).isEqualTo(0x00ABCD);
        assertThat(q.rqPsn()).isEqualTo(0x123456);
        assertThat(q.sqPsn()).isEqualTo(0x654321);
    }

    @Test
    void aUdQpKeepsItsQkey() throws RnicException {
        QueuePair qp = fixture.create(QpType.UD);
        fixture.modify(qp, new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(0x11111111));
        fixture.modify(qp, new QpAttributes().state(QpState.RTR).qkey(0x22222222));
        fixture.modify(qp, new QpAttributes().state(QpState.RTS).sqPsn(99));
        assertThat(qp.query().qkey()).isEqualTo(0x22222222);
        fixture.modify(qp, new QpAttributes().qkey(0x33333333)); // no STATE: RTS -> RTS
        assertThat(qp.state()).isEqualTo(QpState.RTS);
        assertThat(qp.query().qkey()).isEqualTo(0x33333333);
        assertThat(qp.query().sqPsn()).isEqualTo(99);
    }
}
