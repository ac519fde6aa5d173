package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_global_route: the GRH part of an address (on RoCE, where packets go). */
public final class IbvGlobalRoute {
    public static final MemoryLayout LAYOUT = struct("ibv_global_route",
            IbvGid.LAYOUT.withName("dgid"),
            U32.withName("flow_label"),
            U8.withName("sgid_index"),
            U8.withName("hop_limit"),
            U8.withName("traffic_class"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long DGID = offset(LAYOUT, "dgid");
    public static final long FLOW_LABEL = offset(LAYOUT, "flow_label");
    public static final long SGID_INDEX = offset(LAYOUT, "sgid_index");
    public static final long HOP_LIMIT = offset(LAYOUT, "hop_limit");
    public static final long TRAFFIC_CLASS = offset(LAYOUT, "traffic_class");

    private IbvGlobalRoute() {
    }
}
