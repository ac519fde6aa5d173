package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.nativ.abi.IbvAhAttr;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * jrxe's AddressVector and libibverbs' ibv_ah_attr. On RoCE every address is global (is_global
 * 1, the GRH names the destination GID), the LID is 0 and the static rate is the port's.
 */
public final class AhAttrCodec {
    private AhAttrCodec() {
    }

    /** Writes {@code av} into the ibv_ah_attr at {@code attr} (every byte of it). */
    public static void encode(AddressVector av, MemorySegment attr) {
        attr.asSlice(0, IbvAhAttr.SIZE).fill((byte) 0);
        MemorySegment.copy(av.dgid(), 0, attr, JAVA_BYTE, IbvAhAttr.GRH_DGID, 16);
        attr.set(JAVA_INT, IbvAhAttr.GRH_FLOW_LABEL, av.flowLabel());
        attr.set(JAVA_BYTE, IbvAhAttr.GRH_SGID_INDEX, (byte) av.sgidIndex());
        attr.set(JAVA_BYTE, IbvAhAttr.GRH_HOP_LIMIT, (byte) av.hopLimit());
        attr.set(JAVA_BYTE, IbvAhAttr.GRH_TRAFFIC_CLASS, (byte) av.trafficClass());
        attr.set(JAVA_SHORT, IbvAhAttr.DLID, (short) 0);
        attr.set(JAVA_BYTE, IbvAhAttr.SL, (byte) av.serviceLevel());
        attr.set(JAVA_BYTE, IbvAhAttr.IS_GLOBAL, (byte) 1);
        attr.set(JAVA_BYTE, IbvAhAttr.PORT_NUM, (byte) av.portNum());
    }

    /** The ibv_ah_attr at {@code attr} as an AddressVector (the fields jrxe models). */
    public static AddressVector decode(MemorySegment attr) {
        byte[] dgid = attr.asSlice(IbvAhAttr.GRH_DGID, 16).toArray(JAVA_BYTE);
        return new AddressVector(dgid, u8(attr, IbvAhAttr.GRH_SGID_INDEX), u8(attr, IbvAhAttr.GRH_HOP_LIMIT),
                u8(attr, IbvAhAttr.GRH_TRAFFIC_CLASS), attr.get(JAVA_INT, IbvAhAttr.GRH_FLOW_LABEL) & 0xFFFFF,
                u8(attr, IbvAhAttr.SL) & 0xF, u8(attr, IbvAhAttr.PORT_NUM));
    }

    static int u8(MemorySegment s, long offset) {
        return s.get(JAVA_BYTE, offset) & 0xFF;
    }
}
