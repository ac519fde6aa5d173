package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_device_attr: what ibv_query_device fills. */
public final class IbvDeviceAttr {
    public static final MemoryLayout LAYOUT = struct("ibv_device_attr",
            array(64,
                U8,
                "fw_ver"),
            U64.withName("node_guid"),
            U64.withName("sys_image_guid"),
            U64.withName("max_mr_size"),
            U64.withName("page_size_cap"),
            U32.withName("vendor_id"),
            U32.withName("vendor_part_id"),
            U32.withName("hw_ver"),
            INT.withName("max_qp"),
            INT.withName("max_qp_wr"),
            U32.withName("device_cap_flags"),
            INT.withName("max_sge"),
            INT.withName("max_sge_rd"),
            INT.withName("max_cq"),
            INT.withName("max_cqe"),
            INT.withName("max_mr"),
            INT.withName("max_pd"),
            INT.withName("max_qp_rd_atom"),
            INT.withName("max_ee_rd_atom"),
            INT.withName("max_res_rd_atom"),
            INT.withName("max_qp_init_rd_atom"),
            INT.withName("max_ee_init_rd_atom"),
            ENUM.withName("atomic_cap"),
            INT.withName("max_ee"),
            INT.withName("max_rdd"),
            INT.withName("max_mw"),
            INT.withName("max_raw_ipv6_qp"),
            INT.withName("max_raw_ethy_qp"),
            INT.withName("max_mcast_grp"),
            INT.withName("max_mcast_qp_attach"),
            INT.withName("max_total_mcast_qp_attach"),
            INT.withName("max_ah"),
            INT.withName("max_fmr"),
            INT.withName("max_map_per_fmr"),
            INT.withName("max_srq"),
            INT.withName("max_srq_wr"),
            INT.withName("max_srq_sge"),
            U16.withName("max_pkeys"),
            U8.withName("local_ca_ack_delay"),
            U8.withName("phys_port_cnt"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long FW_VER = offset(LAYOUT, "fw_ver");
    public static final long NODE_GUID = offset(LAYOUT, "node_guid");
    public static final long SYS_IMAGE_GUID = offset(LAYOUT, "sys_image_guid");
    public static final long MAX_MR_SIZE = offset(LAYOUT, "max_mr_size");
    public static final long PAGE_SIZE_CAP = offset(LAYOUT, "page_size_cap");
    public static final long VENDOR_ID = offset(LAYOUT, "vendor_id");
    public static final long VENDOR_PART_ID = offset(LAYOUT, "vendor_part_id");
    public static final long HW_VER = offset(LAYOUT, "hw_ver");
    public static final long MAX_QP = offset(LAYOUT, "max_qp");
    public static final long MAX_QP_WR = offset(LAYOUT, "max_qp_wr");
    public static final long DEVICE_CAP_FLAGS = offset(LAYOUT, "device_cap_flags");
    public static final long MAX_SGE = offset(LAYOUT, "max_sge");
    public static final long MAX_SGE_RD = offset(LAYOUT, "max_sge_rd");
    public static final long MAX_CQ = offset(LAYOUT, "max_cq");
    public static final long MAX_CQE = offset(LAYOUT, "max_cqe");
    public static final long MAX_MR = offset(LAYOUT, "max_mr");
    public static final long MAX_PD = offset(LAYOUT, "max_pd");
    public static final long MAX_QP_RD_ATOM = offset(LAYOUT, "max_qp_rd_atom");
    public static final long MAX_RES_RD_ATOM = offset(LAYOUT, "max_res_rd_atom");
    public static final long MAX_QP_INIT_RD_ATOM = offset(LAYOUT, "max_qp_init_rd_atom");
    public static final long ATOMIC_CAP = offset(LAYOUT, "atomic_cap");
    public static final long MAX_MW = offset(LAYOUT, "max_mw");
    public static final long MAX_MCAST_GRP = offset(LAYOUT, "max_mcast_grp");
    public static final long MAX_MCAST_QP_ATTACH = offset(LAYOUT, "max_mcast_qp_attach");
    public static final long MAX_TOTAL_MCAST_QP_ATTACH = offset(LAYOUT, "max_total_mcast_qp_attach");
    public static final long MAX_AH = offset(LAYOUT, "max_ah");
    public static final long MAX_SRQ = offset(LAYOUT, "max_srq");
    public static final long MAX_SRQ_WR = offset(LAYOUT, "max_srq_wr");
    public static final long MAX_SRQ_SGE = offset(LAYOUT, "max_srq_sge");
    public static final long MAX_PKEYS = offset(LAYOUT, "max_pkeys");
    public static final long LOCAL_CA_ACK_DELAY = offset(LAYOUT, "local_ca_ack_delay");
    public static final long PHYS_PORT_CNT = offset(LAYOUT, "phys_port_cnt");

    private IbvDeviceAttr() {
    }
}
