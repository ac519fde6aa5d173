package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_port_attr: what ibv_query_port fills. */
public final class IbvPortAttr {
    public static final MemoryLayout LAYOUT = struct("ibv_port_attr",
            ENUM.withName("state"),
            ENUM.withName("max_mtu"),
            ENUM.withName("active_mtu"),
            INT.withName("gid_tbl_len"),
            U32.withName("port_cap_flags"),
            U32.withName("max_msg_sz"),
            U32.withName("bad_pkey_cntr"),
            U32.withName("qkey_viol_cntr"),
            U16.withName("pkey_tbl_len"),
            U16.withName("lid"),
            U16.withName("sm_lid"),
            U8.withName("lmc"),
            U8.withName("max_vl_num"),
            U8.withName("sm_sl"),
            U8.withName("subnet_timeout"),
            U8.withName("init_type_reply"),
            U8.withName("active_width"),
            U8.withName("active_speed"),
            U8.withName("phys_state"),
            U8.withName("link_layer"),
            U8.withName("flags"),
            U16.withName("port_cap_flags2"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long STATE = offset(LAYOUT, "state");
    public static final long MAX_MTU = offset(LAYOUT, "max_mtu");
    public static final long ACTIVE_MTU = offset(LAYOUT, "active_mtu");
    public static final long GID_TBL_LEN = offset(LAYOUT, "gid_tbl_len");
    public static final long MAX_MSG_SZ = offset(LAYOUT, "max_msg_sz");
    public static final long PKEY_TBL_LEN = offset(LAYOUT, "pkey_tbl_len");
    public static final long LINK_LAYER = offset(LAYOUT, "link_layer");

    private IbvPortAttr() {
    }
}
