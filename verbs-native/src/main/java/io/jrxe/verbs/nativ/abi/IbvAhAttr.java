package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_ah_attr: an address vector (for a UD AH, or a connected QP's path). */
public final class IbvAhAttr {
    public static final MemoryLayout LAYOUT = struct("ibv_ah_attr",
            IbvGlobalRoute.LAYOUT.withName("grh"),
            U16.withName("dlid"),
            U8.withName("sl"),
            U8.withName("src_path_bits"),
            U8.withName("static_rate"),
            U8.withName("is_global"),
            U8.withName("port_num"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long GRH_DGID = offset(LAYOUT, "grh.dgid");
    public static final long GRH_FLOW_LABEL = offset(LAYOUT, "grh.flow_label");
    public static final long GRH_SGID_INDEX = offset(LAYOUT, "grh.sgid_index");
    public static final long GRH_HOP_LIMIT = offset(LAYOUT, "grh.hop_limit");
    public static final long GRH_TRAFFIC_CLASS = offset(LAYOUT, "grh.traffic_class");
    public static final long DLID = offset(LAYOUT, "dlid");
    public static final long SL = offset(LAYOUT, "sl");
    public static final long SRC_PATH_BITS = offset(LAYOUT, "src_path_bits");
    public static final long STATIC_RATE = offset(LAYOUT, "static_rate");
    public static final long IS_GLOBAL = offset(LAYOUT, "is_global");
    public static final long PORT_NUM = offset(LAYOUT, "port_num");

    private IbvAhAttr() {
    }
}
