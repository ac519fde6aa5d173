package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.DatagramParameters;
import io.jrxe.verbs.nativ.abi.RdmaConnParam;
import io.jrxe.verbs.nativ.abi.RdmaUdParam;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ConnectionParameters <-> rdma_conn_param, and rdma_ud_param -> DatagramParameters. */
class ConnParamCodecTest {
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment param = arena.allocate(RdmaConnParam.LAYOUT);

    @AfterEach
    void free() {
        arena.close();
    }

    @Test
    void everyFieldGoesWhereRdmaCmaHPutsIt() {
        byte[] hello = "jrxe".getBytes(StandardCharsets.US_ASCII);
        param.fill((byte) 0x5A);
        ConnParamCodec.encode(new ConnectionParameters(hello, 3, 4, 1, 5, 6, true, 0x123456), param, arena);
        MemorySegment data = param.get(ADDRESS, RdmaConnParam.PRIVATE_DATA).reinterpret(4);
        assertThat(data.toArray(JAVA_BYTE)).isEqualTo(hello);
        assertThat(param.asSlice(RdmaConnParam.PRIVATE_DATA_LEN, 7).toArray(JAVA_BYTE)).containsExactly(4, 3, 4, 1, 5, 6, 1);
        assertThat(param.get(JAVA_INT, RdmaConnParam.QP_NUM)).isEqualTo(0x123456);
        assertThat(param.get(JAVA_BYTE, 15)).as("the padding before qp_num").isZero();
    }

    @Test
    void noPrivateDataIsANullPointer() {
        ConnParamCodec.encode(ConnectionParameters.defaults(), param, arena);
        assertThat(param.get(ADDRESS, RdmaConnParam.PRIVATE_DATA)).isEqualTo(MemorySegment.NULL);
        assertThat(param.get(JAVA_BYTE, RdmaConnParam.PRIVATE_DATA_LEN)).isZero();
    }

    @Test
    void whatIsEncodedDecodesToTheSameParameters() {
        ConnectionParameters p = new ConnectionParameters(new byte[56], 255, 255, 0, 7, 7, false, 0xFFFFFF);
        ConnParamCodec.encode(p, param, arena);
        assertThat(ConnParamCodec.decode(param)).isEqualTo(p);
    }

    @Test
    void decodingCopiesThePrivateData() {
        MemorySegment data = arena.allocateFrom(JAVA_BYTE, new byte[] {1, 2, 3});
        param.set(ADDRESS, RdmaConnParam.PRIVATE_DATA, data);
        param.set(JAVA_BYTE, RdmaConnParam.PRIVATE_DATA_LEN, (byte) 3);
        ConnectionParameters p = ConnParamCodec.decode(param);
        data.fill((byte) 9);   // what rdma_ack_cm_event frees may then hold anything
        assertThat(p.privateData()).containsExactly(1, 2, 3);
    }

    @Test
    void privateDataLongerThanAUint8CountsIsRefused() {
        ConnectionParameters p = ConnectionParameters.defaults().withPrivateData(new byte[256]);
        assertThatThrownBy(() -> ConnParamCodec.encode(p, param, arena))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("private data of 256 bytes: rdma_conn_param carries at most 255");
    }

    @Test
    void aDatagramEventGivesThePeersAddressQpAndQkey() {
        MemorySegment ud = arena.allocate(RdmaUdParam.LAYOUT);
        byte[] gid = new byte[16];
        gid[15] = 2;
        AhAttrCodec.encode(new AddressVector(gid, 1, 64, 0, 0, 0, 1), ud.asSlice(RdmaUdParam.AH_ATTR));
        ud.set(ADDRESS, RdmaUdParam.PRIVATE_DATA, arena.allocateFrom(JAVA_BYTE, new byte[] {7}));
        ud.set(JAVA_BYTE, RdmaUdParam.PRIVATE_DATA_LEN, (byte) 1);
        ud.set(JAVA_INT, RdmaUdParam.QP_NUM, 0x11);
        ud.set(JAVA_INT, RdmaUdParam.QKEY, DatagramParameters.UDP_QKEY);
        DatagramParameters d = ConnParamCodec.decodeDatagram(ud);
        assertThat(d.qpNumber()).isEqualTo(0x11);
        assertThat(d.qkey()).isEqualTo(0x01234567);
        assertThat(d.privateData()).containsExactly(7);
        assertThat(d.address().dgid()).isEqualTo(gid);
        assertThat(d.address().sgidIndex()).isEqualTo(1);
        assertThat(d.address().portNum()).isEqualTo(1);
    }
}
