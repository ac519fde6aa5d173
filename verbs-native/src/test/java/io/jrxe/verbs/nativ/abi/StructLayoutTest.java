package io.jrxe.verbs.nativ.abi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemoryLayout;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every libibverbs struct jrxe maps, checked member by member against the installed headers:
 * gcc prints offsetof and sizeof of each named member and the struct's size, and the Java
 * layouts must say the same.
 */
class StructLayoutTest extends GccLayouts {
    /** C type -> the Java layout of it. */
    static final Map<String, MemoryLayout> STRUCTS = new LinkedHashMap<>();

    static {
        STRUCTS.put("union ibv_gid", IbvGid.LAYOUT);
        STRUCTS.put("struct ibv_gid_entry", IbvGidEntry.LAYOUT);
        STRUCTS.put("struct ibv_device", IbvDevice.LAYOUT);
        STRUCTS.put("struct ibv_context_ops", IbvContextOps.LAYOUT);
        STRUCTS.put("struct ibv_context", IbvContext.LAYOUT);
        STRUCTS.put("struct ibv_device_attr", IbvDeviceAttr.LAYOUT);
        STRUCTS.put("struct ibv_device_attr_ex", IbvDeviceAttrEx.LAYOUT);
        STRUCTS.put("struct ibv_port_attr", IbvPortAttr.LAYOUT);
        STRUCTS.put("struct ibv_async_event", IbvAsyncEvent.LAYOUT);
        STRUCTS.put("struct ibv_wc", IbvWc.LAYOUT);
        STRUCTS.put("struct ibv_mw_bind_info", IbvMwBindInfo.LAYOUT);
        STRUCTS.put("struct ibv_mw_bind", IbvMwBind.LAYOUT);
        STRUCTS.put("struct ibv_pd", IbvPd.LAYOUT);
        STRUCTS.put("struct ibv_mr", IbvMr.LAYOUT);
        STRUCTS.put("struct ibv_mw", IbvMw.LAYOUT);
        STRUCTS.put("struct ibv_global_route", IbvGlobalRoute.LAYOUT);
        STRUCTS.put("struct ibv_ah_attr", IbvAhAttr.LAYOUT);
        STRUCTS.put("struct ibv_ah", IbvAh.LAYOUT);
        STRUCTS.put("struct ibv_srq_attr", IbvSrqAttr.LAYOUT);
        STRUCTS.put("struct ibv_srq_init_attr", IbvSrqInitAttr.LAYOUT);
        STRUCTS.put("struct ibv_srq", IbvSrq.LAYOUT);
        STRUCTS.put("struct ibv_qp_cap", IbvQpCap.LAYOUT);
        STRUCTS.put("struct ibv_qp_init_attr", IbvQpInitAttr.LAYOUT);
        STRUCTS.put("struct ibv_qp_attr", IbvQpAttr.LAYOUT);
        STRUCTS.put("struct ibv_qp", IbvQp.LAYOUT);
        STRUCTS.put("struct ibv_qp_init_attr_ex", IbvQpInitAttrEx.LAYOUT);
        STRUCTS.put("struct ibv_qp_ex", IbvQpEx.LAYOUT);
        STRUCTS.put("struct ibv_comp_channel", IbvCompChannel.LAYOUT);
        STRUCTS.put("struct ibv_cq", IbvCq.LAYOUT);
        STRUCTS.put("struct ibv_sge", IbvSge.LAYOUT);
        STRUCTS.put("struct ibv_recv_wr", IbvRecvWr.LAYOUT);
        STRUCTS.put("struct ibv_send_wr", IbvSendWr.LAYOUT);
    }

    StructLayoutTest() {
        super("infiniband/verbs.h", "libibverbs-dev", STRUCTS, 250);
    }

    @Test
    void theExtendedOpsLieWhereStructVerbsContextPutsThemBeforeTheContext() {
        String out = CCompiler.run("""
                #include <stdio.h>
                #include <stddef.h>
                #include <infiniband/verbs.h>
                #define BEFORE(m) (offsetof(struct verbs_context, context) - offsetof(struct verbs_context, m))
                int main(void) {
                  printf("%zu %zu %zu %zu\\n", BEFORE(sz), BEFORE(create_qp_ex), BEFORE(query_device_ex), BEFORE(advise_mr));
                  return 0;
                }
                """);
        assertThat(out.strip()).isEqualTo(IbvContext.VERBS_SZ_BEFORE + " " + IbvContext.VERBS_CREATE_QP_EX_BEFORE + " "
                + IbvContext.VERBS_QUERY_DEVICE_EX_BEFORE + " " + IbvContext.VERBS_ADVISE_MR_BEFORE);
    }

    @Test
    void anonymousUnionMembersAreReachedByTheirCNames() {
        assertThat(IbvWc.IMM_DATA).isEqualTo(IbvWc.INVALIDATED_RKEY);
        assertThat(IbvSendWr.WR_RDMA_REMOTE_ADDR).isEqualTo(IbvSendWr.WR_ATOMIC_REMOTE_ADDR).isEqualTo(IbvSendWr.WR_UD_AH);
        assertThat(CLayout.size(IbvSendWr.LAYOUT, "wr")).isEqualTo(32);
    }
}
