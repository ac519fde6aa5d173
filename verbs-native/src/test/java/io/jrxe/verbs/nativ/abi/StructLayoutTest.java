package io.jrxe.verbs.nativ.abi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemoryLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every libibverbs struct jrxe maps, checked member by member against the installed headers:
 * gcc prints offsetof and sizeof of each named member and the struct's size, and the Java
 * layouts must say the same.
 */
class StructLayoutTest {
    /** C type -> the Java layout of it. */
    static final Map<String, MemoryLayout> STRUCTS = new LinkedHashMap<>();

    static {
        STRUCTS.put("union ibv_gid", IbvGid.LAYOUT);
        STRUCTS.put("struct ibv_gid_entry", IbvGidEntry.LAYOUT);
        STRUCTS.put("struct ibv_device", IbvDevice.LAYOUT);
        STRUCTS.put("struct ibv_context_ops", IbvContextOps.LAYOUT);
        STRUCTS.put("struct ibv_context", IbvContext.LAYOUT);
        STRUCTS.put("struct ibv_device_attr", IbvDeviceAttr.LAYOUT);
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
        STRUCTS.put("struct ibv_comp_channel", IbvCompChannel.LAYOUT);
        STRUCTS.put("struct ibv_cq", IbvCq.LAYOUT);
        STRUCTS.put("struct ibv_sge", IbvSge.LAYOUT);
        STRUCTS.put("struct ibv_recv_wr", IbvRecvWr.LAYOUT);
        STRUCTS.put("struct ibv_send_wr", IbvSendWr.LAYOUT);
    }

    private static Map<String, String> gcc;

    @BeforeAll
    static void askGcc() {
        CCompiler.assumeAvailable();
        StringBuilder c = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n#include <infiniband/verbs.h>\n");
        c.append("int main(void) {\n");
        for (var e : STRUCTS.entrySet()) {
            String t = e.getKey();
            c.append(String.format("  printf(\"%s sizeof %%zu\\n\", sizeof(%s));%n", t, t));
            for (CLayout.Member m : CLayout.members(e.getValue())) {
                c.append(String.format("  printf(\"%s %s %%zu %%zu\\n\", offsetof(%s, %s), sizeof(((%s *)0)->%s));%n",
                        t, m.path(), t, m.path(), t, m.path()));
            }
        }
        c.append("  return 0;\n}\n");
        gcc = new LinkedHashMap<>();
        for (String line : CCompiler.run(c.toString()).split("\n")) {
            int cut = line.indexOf(' ', line.indexOf(' ') + 1);
            int cut2 = line.indexOf(' ', cut + 1);
            gcc.put(line.substring(0, cut2), line.substring(cut2 + 1));
        }
    }

    @Test
    void everyStructHasTheSizeGccGivesIt() {
        List<String> wrong = new ArrayList<>();
        for (var e : STRUCTS.entrySet()) {
            String c = gcc.get(e.getKey() + " sizeof");
            String java = Long.toString(e.getValue().byteSize());
            if (!java.equals(c)) {
                wrong.add(e.getKey() + ": gcc " + c + ", Java " + java);
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void everyMemberHasTheOffsetAndSizeGccGivesIt() {
        List<String> wrong = new ArrayList<>();
        int compared = 0;
        for (var e : STRUCTS.entrySet()) {
            for (CLayout.Member m : CLayout.members(e.getValue())) {
                String c = gcc.get(e.getKey() + " " + m.path());
                String java = m.offset() + " " + m.size();
                compared++;
                if (!java.equals(c)) {
                    wrong.add(e.getKey() + "." + m.path() + ": gcc (offset size) " + c + ", Java " + java);
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(compared).isGreaterThan(250);
    }

    @Test
    void anonymousUnionMembersAreReachedByTheirCNames() {
        assertThat(IbvWc.IMM_DATA).isEqualTo(IbvWc.INVALIDATED_RKEY);
        assertThat(IbvSendWr.WR_RDMA_REMOTE_ADDR).isEqualTo(IbvSendWr.WR_ATOMIC_REMOTE_ADDR).isEqualTo(IbvSendWr.WR_UD_AH);
        assertThat(CLayout.size(IbvSendWr.LAYOUT, "wr")).isEqualTo(32);
    }
}
