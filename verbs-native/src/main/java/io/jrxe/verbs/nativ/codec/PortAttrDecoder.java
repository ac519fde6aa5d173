package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.nativ.abi.IbvPortAttr;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/** libibverbs' ibv_port_attr as jrxe's PortInfo, with the names ibv_devinfo prints. */
public final class PortAttrDecoder {
    /** enum ibv_port_state, by value; jrxe's emulated ports say ACTIVE the same way. */
    private static final String[] STATES = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
    /** IBV_LINK_LAYER_UNSPECIFIED, _INFINIBAND, _ETHERNET. */
    private static final String[] LINK_LAYERS = {"Unspecified", "InfiniBand", "Ethernet"};

    private PortAttrDecoder() {
    }

    public static PortInfo decode(MemorySegment p) {
        int state = p.get(JAVA_INT, IbvPortAttr.STATE);
        int link = p.get(JAVA_BYTE, IbvPortAttr.LINK_LAYER) & 0xFF;
        return new PortInfo(
                state >= 0 && state < STATES.length ? STATES[state] : "state " + state,
                mtu(p.get(JAVA_INT, IbvPortAttr.MAX_MTU)),
                mtu(p.get(JAVA_INT, IbvPortAttr.ACTIVE_MTU)),
                link < LINK_LAYERS.length ? LINK_LAYERS[link] : "link layer " + link,
                p.get(JAVA_INT, IbvPortAttr.GID_TBL_LEN),
                p.get(JAVA_SHORT, IbvPortAttr.PKEY_TBL_LEN) & 0xFFFF);
    }

    /** A port that is down may report no MTU (0): read it as the smallest. */
    private static Mtu mtu(int value) {
        return value >= Mtu.MTU_256.verbsValue() && value <= Mtu.MTU_4096.verbsValue() ? Mtu.ofVerbsValue(value) : Mtu.MTU_256;
    }
}
