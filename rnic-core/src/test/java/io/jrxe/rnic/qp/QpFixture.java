package io.jrxe.rnic.qp;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A real device (jrxe0 on 127.0.0.1, commands run inline) with a PD and a CQ, and the helpers
 * the QP tests share: create a QP, drive it to a state with the attributes the IBTA table
 * requires, give each attribute a valid (random) value, and compare what query-QP returns.
 */
final class QpFixture {
    static final QpCapabilities CAPS = new QpCapabilities(4, 4, 1, 1, 0);

    final NicResources rnic;
    final ProtectionDomain pd;
    final CompletionQueue cq;

    QpFixture() {
        this(DeviceAttributes.rxeDefaults());
    }

    QpFixture(DeviceAttributes attributes) {
        try {
            rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("127.0.0.1")).withAttributes(attributes),
                    NicExecutor.INLINE);
            pd = rnic.executor().call(rnic::allocatePd);
            cq = rnic.executor().call(() -> rnic.createCq(64, null));
        } catch (UnknownHostException | RnicException e) {
            throw new AssertionError(e);
        }
    }

    QueuePair create(QpType type) {
        try {
            return rnic.executor().call(() -> Nics.createQp(rnic, pd, type, cq, cq, null, CAPS, false));
        } catch (RnicException e) {
            throw new AssertionError(e);
        }
    }

    void destroy(QueuePair qp) {
        try {
            rnic.executor().call(() -> {
                Nics.destroyQp(rnic, qp);
                return null;
            });
        } catch (RnicException e) {
            throw new AssertionError(e);
        }
    }

    /** ibv_modify_qp, as a command on the NIC thread. */
    void modify(QueuePair qp, QpAttributes a) throws RnicException {
        rnic.executor().call(() -> {
            qp.modify(a, rnic.attributes(), rnic.port());
            return null;
        });
    }

    /** A modify that must be refused: returns the refusal. */
    RnicException refused(QueuePair qp, QpAttributes a) {
        RnicException e = catchThrowableOfType(RnicException.class, () -> modify(qp, a));
        assertThat(e).as("modify %s with %s from %s must be refused", qp, a, qp.state()).isNotNull();
        return e;
    }

    /**
     * A new QP of this type in this state, reached through modify with the attributes the
     * expected (IBTA) table requires at each step; SQE only the NIC enters (a send error on a
     * UC or UD QP), so it is forced from RTS.
     */
    QueuePair qpIn(QpType type, QpState state, Random random) {
        QueuePair qp = create(type);
        try {
            switch (state) {
                case RESET -> { }
                case INIT -> step(qp, QpState.INIT, random);
                case RTR -> {
                    step(qp, QpState.INIT, random);
                    step(qp, QpState.RTR, random);
                }
                case RTS -> toRts(qp, random);
                case SQD -> {
                    toRts(qp, random);
                    step(qp, QpState.SQD, random);
                }
                case SQE -> {
                    toRts(qp, random);
                    qp.forceState(QpState.SQE);
                }
                case ERR -> {
                    toRts(qp, random);
                    step(qp, QpState.ERR, random);
                }
            }
        } catch (RnicException e) {
            throw new AssertionError("could not drive " + qp + " to " + state + ": " + e.getMessage(), e);
        }
        assertThat(qp.state()).isEqualTo(state);
        return qp;
    }

    private void toRts(QueuePair qp, Random random) throws RnicException {
        step(qp, QpState.INIT, random);
        step(qp, QpState.RTR, random);
        step(qp, QpState.RTS, random);
    }

    private void step(QueuePair qp, QpState to, Random random) throws RnicException {
        IbtaQpTransitions.Rule rule = Objects.requireNonNull(IbtaQpTransitions.rule(qp.state(), to, qp.type()));
        QpAttributes a = new QpAttributes().state(to);
        for (QpAttr attr : rule.required()) {
            setValid(a, attr, qp.state(), random);
        }
        modify(qp, a);
    }

    /** Gives an attribute a random value inside its range (for ALT_PATH, which has no value, only the bit). */
    static void setValid(QpAttributes a, QpAttr attr, QpState from, Random random) {
        switch (attr) {
            case STATE -> throw new IllegalArgumentException("STATE is set by the caller");
            case CUR_STATE -> a.curState(from);
            case EN_SQD_ASYNC_NOTIFY -> a.sqdAsyncNotify(random.nextBoolean());
            case ACCESS_FLAGS -> a.accessFlags(random.nextInt(16)
                    & (Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
            case PKEY_INDEX -> a.pkeyIndex(0);
            case PORT -> a.port(1);
            case QKEY -> a.qkey(random.nextInt() & 0x7FFF_FFFF);
            case AV -> a.av(randomAv(random));
            case PATH_MTU -> a.pathMtu(Mtu.values()[random.nextInt(Mtu.values().length)]);
            case TIMEOUT -> a.timeout(random.nextInt(32));
            case RETRY_CNT -> a.retryCnt(random.nextInt(8));
            case RNR_RETRY -> a.rnrRetry(random.nextInt(8));
            case RQ_PSN -> a.rqPsn(random.nextInt(1 << 24));
            case MAX_QP_RD_ATOMIC -> a.maxRdAtomic(random.nextInt(129));
            case ALT_PATH -> a.withMaskBits(QpAttr.ALT_PATH.bit());
            case MIN_RNR_TIMER -> a.minRnrTimer(random.nextInt(32));
            case SQ_PSN -> a.sqPsn(random.nextInt(1 << 24));
            case MAX_DEST_RD_ATOMIC -> a.maxDestRdAtomic(random.nextInt(129));
            case PATH_MIG_STATE -> a.pathMigState(random.nextInt(3));
            case CAP -> a.cap(CAPS);
            case DEST_QPN -> a.destQpn(random.nextInt(1 << 24));
        }
    }

    static AddressVector randomAv(Random random) {
        byte[] ip = new byte[4];
        random.nextBytes(ip);
        try {
            return new AddressVector(GidEntry.gidOf(InetAddress.getByAddress(ip)), random.nextInt(2),
                    1 + random.nextInt(255), random.nextInt(256), random.nextInt(1 << 20), random.nextInt(16), 1);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** The value query-QP returns for an attribute, in a form that compares with equals. */
    static Object valueOf(QpAttributes a, QpAttr attr) {
        return switch (attr) {
            case STATE -> a.state();
            case CUR_STATE -> a.curState();
            case EN_SQD_ASYNC_NOTIFY -> a.sqdAsyncNotify();
            case ACCESS_FLAGS -> a.accessFlags();
            case PKEY_INDEX -> a.pkeyIndex();
            case PORT -> a.port();
            case QKEY -> a.qkey();
            case AV -> a.av();
            case PATH_MTU -> a.pathMtu();
            case TIMEOUT -> a.timeout();
            case RETRY_CNT -> a.retryCnt();
            case RNR_RETRY -> a.rnrRetry();
            case RQ_PSN -> a.rqPsn();
            case MAX_QP_RD_ATOMIC -> a.maxRdAtomic();
            case ALT_PATH -> null;
            case MIN_RNR_TIMER -> a.minRnrTimer();
            case SQ_PSN -> a.sqPsn();
            case MAX_DEST_RD_ATOMIC -> a.maxDestRdAtomic();
            case PATH_MIG_STATE -> a.pathMigState();
            case CAP -> a.cap();
            case DEST_QPN -> a.destQpn();
        };
    }

    /** Everything query-QP says, as one comparable string (for "unchanged" checks). */
    static String snapshot(QueuePair qp) {
        QpAttributes q = qp.query();
        StringBuilder sb = new StringBuilder();
        for (QpAttr attr : QpAttr.values()) {
            if (q.has(attr)) {
                Object v = valueOf(q, attr);
                if (v instanceof AddressVector av) {
                    v = GidEntry.format(av.dgid()) + "/" + av.sgidIndex() + "/" + av.hopLimit() + "/" + av.trafficClass()
                            + "/" + av.flowLabel() + "/" + av.serviceLevel() + "/" + av.portNum();
                }
                sb.append(attr).append('=').append(v).append(' ');
            }
        }
        return sb.toString();
    }
}
