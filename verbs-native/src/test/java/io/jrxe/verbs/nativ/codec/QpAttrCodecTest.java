package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.nativ.abi.IbvAhAttr;
import io.jrxe.verbs.nativ.abi.IbvQpAttr;
import io.jrxe.verbs.nativ.abi.IbvQpCap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.assertj.core.api.Assertions.assertThat;

/** QpAttributes <-> ibv_qp_attr and attr_mask. */
class QpAttrCodecTest {
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment attr = arena.allocate(IbvQpAttr.LAYOUT);
    private static final byte[] DGID = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 77, 0, 3};

    @AfterEach
    void close() {
        arena.close();
    }

    private static QpAttributes rtr() {
        return new QpAttributes().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpn(0x000123).rqPsn(0xabcdef)
                .maxDestRdAtomic(16).minRnrTimer(12).av(new AddressVector(DGID, 1, 64, 0x20, 0x12345, 5, 1));
    }

    @Test
    void theMaskIsIbvQpAttrMaskBitForBit() {
        int mask = QpAttrCodec.encode(rtr(), attr);
        // IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER | IBV_QP_DEST_QPN
        assertThat(mask).isEqualTo(1 | 1 << 7 | 1 << 8 | 1 << 12 | 1 << 17 | 1 << 15 | 1 << 20);
    }

    @Test
    void rtrAttributesLandInTheirFields() {
        QpAttrCodec.encode(rtr(), attr);
        assertThat(attr.get(JAVA_INT, IbvQpAttr.QP_STATE)).isEqualTo(2); // IBV_QPS_RTR
        assertThat(attr.get(JAVA_INT, IbvQpAttr.PATH_MTU)).isEqualTo(3); // IBV_MTU_1024
        assertThat(attr.get(JAVA_INT, IbvQpAttr.DEST_QP_NUM)).isEqualTo(0x123);
        assertThat(attr.get(JAVA_INT, IbvQpAttr.RQ_PSN)).isEqualTo(0xabcdef);
        assertThat(attr.get(JAVA_BYTE, IbvQpAttr.MAX_DEST_RD_ATOMIC)).isEqualTo((byte) 16);
        assertThat(attr.get(JAVA_BYTE, IbvQpAttr.MIN_RNR_TIMER)).isEqualTo((byte) 12);
        long ah = IbvQpAttr.AH_ATTR;
        assertThat(attr.asSlice(ah + IbvAhAttr.GRH_DGID, 16).toArray(JAVA_BYTE)).containsExactly(DGID);
        assertThat(attr.get(JAVA_INT, ah + IbvAhAttr.GRH_FLOW_LABEL)).isEqualTo(0x12345);
        assertThat(attr.get(JAVA_BYTE, ah + IbvAhAttr.GRH_SGID_INDEX)).isEqualTo((byte) 1);
        assertThat(attr.get(JAVA_BYTE, ah + IbvAhAttr.GRH_HOP_LIMIT)).isEqualTo((byte) 64);
        assertThat(attr.get(JAVA_BYTE, ah + IbvAhAttr.GRH_TRAFFIC_CLASS)).isEqualTo((byte) 0x20);
        assertThat(attr.get(JAVA_BYTE, ah + IbvAhAttr.SL)).isEqualTo((byte) 5);
        assertThat(attr.get(JAVA_BYTE, ah + IbvAhAttr.IS_GLOBAL)).isEqualTo((byte) 1);
        assertThat(attr.get(JAVA_BYTE, ah + IbvAhAttr.PORT_NUM)).isEqualTo((byte) 1);
        assertThat(attr.get(JAVA_SHORT, ah + IbvAhAttr.DLID)).isZero();
    }

    @Test
    void initAndRtsAttributesLandInTheirFields() {
        int mask = QpAttrCodec.encode(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0xE).qkey(0x11111111),
                attr);
        assertThat(mask).isEqualTo(QpAttr.mask(QpAttr.STATE, QpAttr.PKEY_INDEX, QpAttr.PORT, QpAttr.ACCESS_FLAGS, QpAttr.QKEY));
        assertThat(attr.get(JAVA_INT, IbvQpAttr.QP_ACCESS_FLAGS)).isEqualTo(0xE);
        assertThat(attr.get(JAVA_INT, IbvQpAttr.QKEY)).isEqualTo(0x11111111);
        assertThat(attr.get(JAVA_BYTE, IbvQpAttr.PORT_NUM)).isEqualTo((byte) 1);
        QpAttrCodec.encode(new QpAttributes().state(QpState.RTS).sqPsn(0x123456).timeout(14).retryCnt(7).rnrRetry(6)
                .maxRdAtomic(16).curState(QpState.RTR).sqdAsyncNotify(true)
                .cap(new QpCapabilities(10, 20, 3, 4, 64)), attr);
        assertThat(attr.get(JAVA_INT, IbvQpAttr.QP_STATE)).isEqualTo(3);
        assertThat(attr.get(JAVA_INT, IbvQpAttr.CUR_QP_STATE)).isEqualTo(2);
        assertThat(attr.get(JAVA_INT, IbvQpAttr.SQ_PSN)).isEqualTo(0x123456);
        assertThat(attr.get(JAVA_BYTE, IbvQpAttr.TIMEOUT)).isEqualTo((byte) 14);
        assertThat(attr.get(JAVA_BYTE, IbvQpAttr.RETRY_CNT)).isEqualTo((byte) 7);
        assertThat(attr.get(JAVA_BYTE, IbvQpAttr.RNR_RETRY)).isEqualTo((byte) 6);
        assertThat(attr.get(JAVA_BYTE, IbvQpAttr.MAX_RD_ATOMIC)).isEqualTo((byte) 16);
        assertThat(attr.get(JAVA_BYTE, IbvQpAttr.EN_SQD_ASYNC_NOTIFY)).isEqualTo((byte) 1);
        assertThat(attr.get(JAVA_INT, IbvQpAttr.CAP + IbvQpCap.MAX_RECV_WR)).isEqualTo(20);
        assertThat(attr.get(JAVA_INT, IbvQpAttr.CAP + IbvQpCap.MAX_INLINE_DATA)).isEqualTo(64);
        assertThat(attr.get(JAVA_INT, IbvQpAttr.AH_ATTR + IbvAhAttr.GRH_FLOW_LABEL)).as("no AV was set").isZero();
    }

    @Test
    void whatQueryQpFillsReadsBackAsEveryAttribute() {
        QpAttributes in = rtr().sqPsn(0x654321).timeout(14).retryCnt(7).rnrRetry(6).maxRdAtomic(8).qkey(5)
                .accessFlags(0x7).pkeyIndex(3).port(1).cap(new QpCapabilities(10, 20, 3, 4, 64)).pathMigState(2);
        QpAttrCodec.encode(in, attr);
        QpAttributes out = QpAttrCodec.decode(attr);
        assertThat(out.state()).isEqualTo(QpState.RTR);
        assertThat(out.pathMtu()).isEqualTo(Mtu.MTU_1024);
        assertThat(out.destQpn()).isEqualTo(0x123);
        assertThat(out.rqPsn()).isEqualTo(0xabcdef);
        assertThat(out.sqPsn()).isEqualTo(0x654321);
        assertThat(out.maxDestRdAtomic()).isEqualTo(16);
        assertThat(out.maxRdAtomic()).isEqualTo(8);
        assertThat(out.minRnrTimer()).isEqualTo(12);
        assertThat(out.timeout()).isEqualTo(14);
        assertThat(out.retryCnt()).isEqualTo(7);
        assertThat(out.rnrRetry()).isEqualTo(6);
        assertThat(out.qkey()).isEqualTo(5);
        assertThat(out.accessFlags()).isEqualTo(7);
        assertThat(out.pkeyIndex()).isEqualTo(3);
        assertThat(out.pathMigState()).isEqualTo(2);
        assertThat(out.cap()).isEqualTo(new QpCapabilities(10, 20, 3, 4, 64));
        assertThat(out.av()).isEqualTo(new AddressVector(DGID, 1, 64, 0x20, 0x12345, 5, 1));
        assertThat(out.mask() & QpAttrCodec.QUERY_MASK).isEqualTo(QpAttrCodec.QUERY_MASK);
    }

    @Test
    void aQpWithoutAPathMtuYetHasNone() {
        QpAttrCodec.encode(new QpAttributes().state(QpState.RESET), attr);
        QpAttributes out = QpAttrCodec.decode(attr);
        assertThat(out.state()).isEqualTo(QpState.RESET);
        assertThat(out.has(QpAttr.PATH_MTU)).isFalse();
    }
}
