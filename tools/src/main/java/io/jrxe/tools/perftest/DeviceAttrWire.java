package io.jrxe.tools.perftest;

import io.jrxe.tools.devinfo.DevinfoCommand;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.nativ.abi.CLayout;
import io.jrxe.verbs.nativ.abi.IbvDeviceAttr;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A struct ibv_device_attr as perftest's negotiation carries it: raw, in the sender's byte order (little-endian:
 * x86-64 and arm64, where perftest runs), at the offsets of libibverbs' layout ({@link IbvDeviceAttr}, checked
 * against the C header). The GUIDs are __be64, big-endian in any byte order. The peer reads max_qp_rd_atom of it.
 */
final class DeviceAttrWire {
    static final int SIZE = (int) IbvDeviceAttr.SIZE;

    private DeviceAttrWire() {
    }

    /** The bytes ibv_query_device would have filled for a device with these attributes and node GUID (one port). */
    static byte[] encode(DeviceAttributes a, long nodeGuid) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        byte[] fw = a.firmwareVersion().getBytes(StandardCharsets.US_ASCII);
        b.put((int) IbvDeviceAttr.FW_VER, fw, 0, Math.min(fw.length, 63));
        b.order(ByteOrder.BIG_ENDIAN).putLong((int) IbvDeviceAttr.NODE_GUID, nodeGuid)
                .putLong((int) IbvDeviceAttr.SYS_IMAGE_GUID, nodeGuid).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong((int) IbvDeviceAttr.MAX_MR_SIZE, a.maxMrSize());
        b.putLong((int) IbvDeviceAttr.PAGE_SIZE_CAP, a.pageSizeCap());
        b.putInt((int) IbvDeviceAttr.VENDOR_ID, a.vendorId());
        b.putInt((int) IbvDeviceAttr.VENDOR_PART_ID, a.vendorPartId());
        b.putInt((int) IbvDeviceAttr.HW_VER, a.hardwareVersion());
        b.putInt((int) IbvDeviceAttr.MAX_QP, a.maxQp());
        b.putInt((int) IbvDeviceAttr.MAX_QP_WR, a.maxQpWr());
        b.putInt((int) IbvDeviceAttr.DEVICE_CAP_FLAGS, DevinfoCommand.capFlags(a));
        b.putInt((int) IbvDeviceAttr.MAX_SGE, a.maxSge());
        b.putInt((int) IbvDeviceAttr.MAX_SGE_RD, a.maxSgeRd());
        b.putInt((int) IbvDeviceAttr.MAX_CQ, a.maxCq());
        b.putInt((int) IbvDeviceAttr.MAX_CQE, a.maxCqe());
        b.putInt((int) IbvDeviceAttr.MAX_MR, a.maxMr());
        b.putInt((int) IbvDeviceAttr.MAX_PD, a.maxPd());
        b.putInt((int) IbvDeviceAttr.MAX_QP_RD_ATOM, a.maxQpRdAtom());
        b.putInt((int) IbvDeviceAttr.MAX_RES_RD_ATOM, a.maxResRdAtom());
        b.putInt((int) IbvDeviceAttr.MAX_QP_INIT_RD_ATOM, a.maxQpInitRdAtom());
        b.putInt((int) IbvDeviceAttr.ATOMIC_CAP, a.atomicCapability().ordinal());
        b.putInt((int) IbvDeviceAttr.MAX_MW, a.maxMw());
        b.putInt((int) IbvDeviceAttr.MAX_AH, a.maxAh());
        b.putInt((int) IbvDeviceAttr.MAX_SRQ, a.maxSrq());
        b.putInt((int) IbvDeviceAttr.MAX_SRQ_WR, a.maxSrqWr());
        b.putInt((int) IbvDeviceAttr.MAX_SRQ_SGE, a.maxSrqSge());
        b.putShort((int) IbvDeviceAttr.MAX_PKEYS, (short) a.maxPkeys());
        b.put((int) IbvDeviceAttr.LOCAL_CA_ACK_DELAY, (byte) a.localCaAckDelay());
        b.put((int) IbvDeviceAttr.PHYS_PORT_CNT, (byte) 1);
        return b.array();
    }

    /** The peer's max_qp_rd_atom: what compare_ibv_device reads. */
    static int maxQpRdAtom(byte[] attr) {
        return ByteBuffer.wrap(attr).order(ByteOrder.LITTLE_ENDIAN).getInt((int) IbvDeviceAttr.MAX_QP_RD_ATOM);
    }

    /** An attribute by its C name, for tests and messages. */
    static int intAt(byte[] attr, String field) {
        return ByteBuffer.wrap(attr).order(ByteOrder.LITTLE_ENDIAN).getInt((int) CLayout.offset(IbvDeviceAttr.LAYOUT, field));
    }
}
