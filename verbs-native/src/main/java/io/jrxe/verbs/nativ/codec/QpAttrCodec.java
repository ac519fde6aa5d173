package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.nativ.abi.IbvQpAttr;
import io.jrxe.verbs.nativ.abi.IbvQpCap;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * jrxe's QpAttributes and libibverbs' ibv_qp_attr with its attr_mask. The mask bits have the
 * same values on both sides (QpAttr is ibv_qp_attr_mask), so the mask passes through unchanged.
 */
public final class QpAttrCodec {
    /** Every attribute ibv_query_qp can report that jrxe models. */
    public static final int QUERY_MASK = QpAttr.allBits() & ~QpAttr.ALT_PATH.bit();

    private QpAttrCodec() {
    }

    /**
     * Writes the attributes set on {@code a} into the ibv_qp_attr at {@code attr} (zeroing the
     * rest) and returns the attr_mask for ibv_modify_qp.
     */
    public static int encode(QpAttributes a, MemorySegment attr) {
        attr.asSlice(0, IbvQpAttr.SIZE).fill((byte) 0);
        if (a.has(QpAttr.STATE)) {
            attr.set(JAVA_INT, IbvQpAttr.QP_STATE, a.state().verbsValue());
        }
        if (a.has(QpAttr.CUR_STATE)) {
            attr.set(JAVA_INT, IbvQpAttr.CUR_QP_STATE, a.curState().verbsValue());
        }
        if (a.has(QpAttr.PATH_MTU)) {
            attr.set(JAVA_INT, IbvQpAttr.PATH_MTU, a.pathMtu().verbsValue());
        }
        attr.set(JAVA_INT, IbvQpAttr.PATH_MIG_STATE, a.pathMigState());
        attr.set(JAVA_INT, IbvQpAttr.QKEY, a.qkey());
        attr.set(JAVA_INT, IbvQpAttr.RQ_PSN, a.rqPsn());
        attr.set(JAVA_INT, IbvQpAttr.SQ_PSN, a.sqPsn());
        attr.set(JAVA_INT, IbvQpAttr.DEST_QP_NUM, a.destQpn());
        attr.set(JAVA_INT, IbvQpAttr.QP_ACCESS_FLAGS, a.accessFlags());
        if (a.has(QpAttr.CAP)) {
            encodeCap(a.cap(), attr.asSlice(IbvQpAttr.CAP, IbvQpCap.SIZE));
        }
        if (a.has(QpAttr.AV)) {
            AhAttrCodec.encode(a.av(), attr.asSlice(IbvQpAttr.AH_ATTR));
        }
        attr.set(JAVA_SHORT, IbvQpAttr.PKEY_INDEX, (short) a.pkeyIndex());
        attr.set(JAVA_BYTE, IbvQpAttr.EN_SQD_ASYNC_NOTIFY, (byte) (a.sqdAsyncNotify() ? 1 : 0));
        attr.set(JAVA_BYTE, IbvQpAttr.MAX_RD_ATOMIC, (byte) a.maxRdAtomic());
        attr.set(JAVA_BYTE, IbvQpAttr.MAX_DEST_RD_ATOMIC, (byte) a.maxDestRdAtomic());
        attr.set(JAVA_BYTE, IbvQpAttr.MIN_RNR_TIMER, (byte) a.minRnrTimer());
        attr.set(JAVA_BYTE, IbvQpAttr.PORT_NUM, (byte) a.port());
        attr.set(JAVA_BYTE, IbvQpAttr.TIMEOUT, (byte) a.timeout());
        attr.set(JAVA_BYTE, IbvQpAttr.RETRY_CNT, (byte) a.retryCnt());
        attr.set(JAVA_BYTE, IbvQpAttr.RNR_RETRY, (byte) a.rnrRetry());
        return a.mask();
    }

    /** The ibv_qp_attr that ibv_query_qp filled, as QpAttributes with every attribute it carries set. */
    public static QpAttributes decode(MemorySegment attr) {
        QpAttributes a = new QpAttributes()
                .state(state(attr.get(JAVA_INT, IbvQpAttr.QP_STATE)))
                .curState(state(attr.get(JAVA_INT, IbvQpAttr.CUR_QP_STATE)))
                .pathMigState(attr.get(JAVA_INT, IbvQpAttr.PATH_MIG_STATE))
                .qkey(attr.get(JAVA_INT, IbvQpAttr.QKEY))
                .rqPsn(attr.get(JAVA_INT, IbvQpAttr.RQ_PSN))
                .sqPsn(attr.get(JAVA_INT, IbvQpAttr.SQ_PSN))
                .destQpn(attr.get(JAVA_INT, IbvQpAttr.DEST_QP_NUM))
                .accessFlags(attr.get(JAVA_INT, IbvQpAttr.QP_ACCESS_FLAGS))
                .cap(decodeCap(attr.asSlice(IbvQpAttr.CAP, IbvQpCap.SIZE)))
                .av(AhAttrCodec.decode(attr.asSlice(IbvQpAttr.AH_ATTR)))
                .pkeyIndex(attr.get(JAVA_SHORT, IbvQpAttr.PKEY_INDEX) & 0xFFFF)
                .sqdAsyncNotify(attr.get(JAVA_BYTE, IbvQpAttr.EN_SQD_ASYNC_NOTIFY) != 0)
                .maxRdAtomic(AhAttrCodec.u8(attr, IbvQpAttr.MAX_RD_ATOMIC))
                .maxDestRdAtomic(AhAttrCodec.u8(attr, IbvQpAttr.MAX_DEST_RD_ATOMIC))
                .minRnrTimer(AhAttrCodec.u8(attr, IbvQpAttr.MIN_RNR_TIMER))
                .port(AhAttrCodec.u8(attr, IbvQpAttr.PORT_NUM))
                .timeout(AhAttrCodec.u8(attr, IbvQpAttr.TIMEOUT))
                .retryCnt(AhAttrCodec.u8(attr, IbvQpAttr.RETRY_CNT))
                .rnrRetry(AhAttrCodec.u8(attr, IbvQpAttr.RNR_RETRY));
        int mtu = attr.get(JAVA_INT, IbvQpAttr.PATH_MTU);
        if (mtu >= Mtu.MTU_256.verbsValue() && mtu <= Mtu.MTU_4096.verbsValue()) {
            a.pathMtu(Mtu.ofVerbsValue(mtu)); // a QP in RESET or INIT has no path MTU yet (0)
        }
        return a;
    }

    public static void encodeCap(QpCapabilities c, MemorySegment cap) {
        cap.set(JAVA_INT, IbvQpCap.MAX_SEND_WR, c.maxSendWr());
        cap.set(JAVA_INT, IbvQpCap.MAX_RECV_WR, c.maxRecvWr());
        cap.set(JAVA_INT, IbvQpCap.MAX_SEND_SGE, c.maxSendSge());
        cap.set(JAVA_INT, IbvQpCap.MAX_RECV_SGE, c.maxRecvSge());
        cap.set(JAVA_INT, IbvQpCap.MAX_INLINE_DATA, c.maxInlineData());
    }

    public static QpCapabilities decodeCap(MemorySegment cap) {
        return new QpCapabilities(cap.get(JAVA_INT, IbvQpCap.MAX_SEND_WR), cap.get(JAVA_INT, IbvQpCap.MAX_RECV_WR),
                cap.get(JAVA_INT, IbvQpCap.MAX_SEND_SGE), cap.get(JAVA_INT, IbvQpCap.MAX_RECV_SGE),
                cap.get(JAVA_INT, IbvQpCap.MAX_INLINE_DATA));
    }

    /** ibv_qp_state to jrxe's (IBV_QPS_UNKNOWN, 7, has no jrxe state: it would mean a broken QP). */
    public static QpState state(int value) {
        QpState[] all = QpState.values();
        if (value < 0 || value >= all.length) {
            throw new IllegalStateException("ibv_qp_state " + value + " is not a state jrxe knows");
        }
        return all[value];
    }
}
