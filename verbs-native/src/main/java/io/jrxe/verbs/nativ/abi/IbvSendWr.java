package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_send_wr: a send work request, with the unions of its remote parts (RDMA, atomic, UD) and of bind_mw. */
public final class IbvSendWr {
    public static final MemoryLayout LAYOUT = struct("ibv_send_wr",
            U64.withName("wr_id"),
            POINTER.withName("next"),
            POINTER.withName("sg_list"),
            INT.withName("num_sge"),
            ENUM.withName("opcode"),
            U32.withName("send_flags"),
            union(null,
                U32.withName("imm_data"),
                U32.withName("invalidate_rkey")),
            union("wr",
                struct("rdma", U64.withName("remote_addr"), U32.withName("rkey")),
                struct("atomic", U64.withName("remote_addr"), U64.withName("compare_add"), U64.withName("swap"), U32.withName("rkey")),
                struct("ud", POINTER.withName("ah"), U32.withName("remote_qpn"), U32.withName("remote_qkey"))),
            union("qp_type",
                struct("xrc", U32.withName("remote_srqn"))),
            union(null,
                struct("bind_mw", POINTER.withName("mw"), U32.withName("rkey"), IbvMwBindInfo.LAYOUT.withName("bind_info")),
                struct("tso", POINTER.withName("hdr"), U16.withName("hdr_sz"), U16.withName("mss"))));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long WR_ID = offset(LAYOUT, "wr_id");
    public static final long NEXT = offset(LAYOUT, "next");
    public static final long SG_LIST = offset(LAYOUT, "sg_list");
    public static final long NUM_SGE = offset(LAYOUT, "num_sge");
    public static final long OPCODE = offset(LAYOUT, "opcode");
    public static final long SEND_FLAGS = offset(LAYOUT, "send_flags");
    public static final long IMM_DATA = offset(LAYOUT, "imm_data");
    public static final long INVALIDATE_RKEY = offset(LAYOUT, "invalidate_rkey");
    public static final long WR_RDMA_REMOTE_ADDR = offset(LAYOUT, "wr.rdma.remote_addr");
    public static final long WR_RDMA_RKEY = offset(LAYOUT, "wr.rdma.rkey");
    public static final long WR_ATOMIC_REMOTE_ADDR = offset(LAYOUT, "wr.atomic.remote_addr");
    public static final long WR_ATOMIC_COMPARE_ADD = offset(LAYOUT, "wr.atomic.compare_add");
    public static final long WR_ATOMIC_SWAP = offset(LAYOUT, "wr.atomic.swap");
    public static final long WR_ATOMIC_RKEY = offset(LAYOUT, "wr.atomic.rkey");
    public static final long WR_UD_AH = offset(LAYOUT, "wr.ud.ah");
    public static final long WR_UD_REMOTE_QPN = offset(LAYOUT, "wr.ud.remote_qpn");
    public static final long WR_UD_REMOTE_QKEY = offset(LAYOUT, "wr.ud.remote_qkey");
    public static final long BIND_MW_MW = offset(LAYOUT, "bind_mw.mw");
    public static final long BIND_MW_RKEY = offset(LAYOUT, "bind_mw.rkey");
    public static final long BIND_MW_BIND_INFO_MR = offset(LAYOUT, "bind_mw.bind_info.mr");
    public static final long BIND_MW_BIND_INFO_ADDR = offset(LAYOUT, "bind_mw.bind_info.addr");
    public static final long BIND_MW_BIND_INFO_LENGTH = offset(LAYOUT, "bind_mw.bind_info.length");
    public static final long BIND_MW_BIND_INFO_MW_ACCESS_FLAGS = offset(LAYOUT, "bind_mw.bind_info.mw_access_flags");

    private IbvSendWr() {
    }
}
