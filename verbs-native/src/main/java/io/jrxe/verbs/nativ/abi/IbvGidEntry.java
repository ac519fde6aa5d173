package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_gid_entry: what _ibv_query_gid_ex returns (GID, index, port, type, net device). */
public final class IbvGidEntry {
    public static final MemoryLayout LAYOUT = struct("ibv_gid_entry",
            IbvGid.LAYOUT.withName("gid"),
            U32.withName("gid_index"),
            U32.withName("port_num"),
            U32.withName("gid_type"),
            U32.withName("ndev_ifindex"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long GID = offset(LAYOUT, "gid");
    public static final long GID_INDEX = offset(LAYOUT, "gid_index");
    public static final long PORT_NUM = offset(LAYOUT, "port_num");
    public static final long GID_TYPE = offset(LAYOUT, "gid_type");
    public static final long NDEV_IFINDEX = offset(LAYOUT, "ndev_ifindex");

    private IbvGidEntry() {
    }
}
