package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.OdpCapabilities;
import io.jrxe.verbs.nativ.abi.IbvDeviceAttr;
import io.jrxe.verbs.nativ.abi.IbvDeviceAttrEx;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/** libibverbs' ibv_device_attr as jrxe's DeviceAttributes. */
public final class DeviceAttrDecoder {
    /** ibv_device_cap_flags bits for memory windows. */
    static final int MEM_WINDOW = 1 << 17;
    static final int MEM_WINDOW_TYPE_2A = 1 << 23;
    static final int MEM_WINDOW_TYPE_2B = 1 << 24;

    private DeviceAttrDecoder() {
    }

    /**
     * One of jrxe's attributes has no field in ibv_device_attr and reads as 0: max_inline_data
     * (a QP's creation tells what it got). The ODP caps come from ibv_device_attr_ex ({@link #odpCaps}).
     */
    public static DeviceAttributes decode(MemorySegment a, OdpCapabilities odp) {
        int caps = a.get(JAVA_INT, IbvDeviceAttr.DEVICE_CAP_FLAGS);
        int atomic = a.get(JAVA_INT, IbvDeviceAttr.ATOMIC_CAP);
        DeviceAttributes.AtomicCapability[] atomics = DeviceAttributes.AtomicCapability.values();
        return new DeviceAttributes(
                a.asSlice(IbvDeviceAttr.FW_VER, 64).getString(0),
                a.get(JAVA_INT, IbvDeviceAttr.VENDOR_ID),
                a.get(JAVA_INT, IbvDeviceAttr.VENDOR_PART_ID),
                a.get(JAVA_INT, IbvDeviceAttr.HW_VER),
                a.get(JAVA_LONG, IbvDeviceAttr.MAX_MR_SIZE),
                a.get(JAVA_LONG, IbvDeviceAttr.PAGE_SIZE_CAP),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_QP),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_QP_WR),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_SGE),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_SGE_RD),
                0,
                a.get(JAVA_INT, IbvDeviceAttr.MAX_CQ),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_CQE),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_MR),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_PD),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_QP_RD_ATOM),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_RES_RD_ATOM),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_QP_INIT_RD_ATOM),
                atomic >= 0 && atomic < atomics.length ? atomics[atomic] : DeviceAttributes.AtomicCapability.NONE,
                a.get(JAVA_INT, IbvDeviceAttr.MAX_MW),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_MCAST_GRP),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_MCAST_QP_ATTACH),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_TOTAL_MCAST_QP_ATTACH),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_AH),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_SRQ),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_SRQ_WR),
                a.get(JAVA_INT, IbvDeviceAttr.MAX_SRQ_SGE),
                a.get(JAVA_SHORT, IbvDeviceAttr.MAX_PKEYS) & 0xFFFF,
                a.get(JAVA_BYTE, IbvDeviceAttr.LOCAL_CA_ACK_DELAY) & 0xFF,
                (caps & MEM_WINDOW) != 0,
                (caps & (MEM_WINDOW_TYPE_2A | MEM_WINDOW_TYPE_2B)) != 0,
                odp);
    }

    /** The odp_caps of an ibv_device_attr_ex. */
    public static OdpCapabilities odpCaps(MemorySegment ex) {
        return new OdpCapabilities(ex.get(JAVA_LONG, IbvDeviceAttrEx.GENERAL_ODP_CAPS),
                ex.get(JAVA_INT, IbvDeviceAttrEx.RC_ODP_CAPS), ex.get(JAVA_INT, IbvDeviceAttrEx.UC_ODP_CAPS),
                ex.get(JAVA_INT, IbvDeviceAttrEx.UD_ODP_CAPS));
    }

    /** The node GUID (__be64) as a number. */
    public static long nodeGuid(MemorySegment a) {
        return a.get(NativeOrder.BE64, IbvDeviceAttr.NODE_GUID);
    }

    public static int physicalPorts(MemorySegment a) {
        return a.get(JAVA_BYTE, IbvDeviceAttr.PHYS_PORT_CNT) & 0xFF;
    }
}
