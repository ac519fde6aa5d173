package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.DatagramParameters;
import io.jrxe.verbs.nativ.abi.IbvAhAttr;
import io.jrxe.verbs.nativ.abi.RdmaConnParam;
import io.jrxe.verbs.nativ.abi.RdmaUdParam;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * jrxe's ConnectionParameters and DatagramParameters, and librdmacm's rdma_conn_param and
 * rdma_ud_param. An event's private data points into librdmacm's event, which rdma_ack_cm_event
 * frees: decoding copies it.
 */
public final class ConnParamCodec {
    /** rdma_conn_param's private_data_len is a uint8_t. */
    public static final int MAX_PRIVATE_DATA = 255;

    private ConnParamCodec() {
    }

    /**
     * Writes {@code p} into the rdma_conn_param at {@code param} (every byte of it), its private data into
     * memory from {@code allocator}, which must outlive the call that takes the parameters.
     *
     * @throws IllegalArgumentException when the private data is longer than a uint8_t counts
     */
    public static void encode(ConnectionParameters p, MemorySegment param, SegmentAllocator allocator) {
        byte[] data = p.privateData();
        if (data.length > MAX_PRIVATE_DATA) {
            throw new IllegalArgumentException("private data of " + data.length + " bytes: rdma_conn_param carries at most "
                    + MAX_PRIVATE_DATA);
        }
        param.asSlice(0, RdmaConnParam.SIZE).fill((byte) 0);
        param.set(ADDRESS, RdmaConnParam.PRIVATE_DATA, data.length == 0 ? MemorySegment.NULL : allocator.allocateFrom(JAVA_BYTE, data));
        param.set(JAVA_BYTE, RdmaConnParam.PRIVATE_DATA_LEN, (byte) data.length);
        param.set(JAVA_BYTE, RdmaConnParam.RESPONDER_RESOURCES, (byte) p.responderResources());
        param.set(JAVA_BYTE, RdmaConnParam.INITIATOR_DEPTH, (byte) p.initiatorDepth());
        param.set(JAVA_BYTE, RdmaConnParam.FLOW_CONTROL, (byte) p.flowControl());
        param.set(JAVA_BYTE, RdmaConnParam.RETRY_COUNT, (byte) p.retryCount());
        param.set(JAVA_BYTE, RdmaConnParam.RNR_RETRY_COUNT, (byte) p.rnrRetryCount());
        param.set(JAVA_BYTE, RdmaConnParam.SRQ, (byte) (p.srq() ? 1 : 0));
        param.set(JAVA_INT, RdmaConnParam.QP_NUM, p.qpNumber());
    }

    /** The rdma_conn_param at {@code param}, its private data copied. The 1- and 3-bit fields are masked to their width. */
    public static ConnectionParameters decode(MemorySegment param) {
        byte[] data = privateData(param.get(ADDRESS, RdmaConnParam.PRIVATE_DATA), u8(param, RdmaConnParam.PRIVATE_DATA_LEN));
        return new ConnectionParameters(data, u8(param, RdmaConnParam.RESPONDER_RESOURCES),
                u8(param, RdmaConnParam.INITIATOR_DEPTH), u8(param, RdmaConnParam.FLOW_CONTROL) & 1,
                u8(param, RdmaConnParam.RETRY_COUNT) & 7, u8(param, RdmaConnParam.RNR_RETRY_COUNT) & 7,
                u8(param, RdmaConnParam.SRQ) != 0, param.get(JAVA_INT, RdmaConnParam.QP_NUM) & 0xFFFFFF);
    }

    /** The rdma_ud_param at {@code param}, its private data copied. */
    public static DatagramParameters decodeDatagram(MemorySegment param) {
        byte[] data = privateData(param.get(ADDRESS, RdmaUdParam.PRIVATE_DATA), u8(param, RdmaUdParam.PRIVATE_DATA_LEN));
        return new DatagramParameters(data, AhAttrCodec.decode(param.asSlice(RdmaUdParam.AH_ATTR, IbvAhAttr.SIZE)),
                param.get(JAVA_INT, RdmaUdParam.QP_NUM) & 0xFFFFFF, param.get(JAVA_INT, RdmaUdParam.QKEY));
    }

    private static byte[] privateData(MemorySegment pointer, int length) {
        if (length == 0 || pointer.equals(MemorySegment.NULL)) {
            return new byte[0];
        }
        return pointer.reinterpret(length).toArray(JAVA_BYTE);
    }

    private static int u8(MemorySegment s, long offset) {
        return s.get(JAVA_BYTE, offset) & 0xFF;
    }
}
