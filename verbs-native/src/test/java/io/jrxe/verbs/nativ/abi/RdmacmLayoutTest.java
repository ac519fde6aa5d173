package io.jrxe.verbs.nativ.abi;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemoryLayout;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every librdmacm struct jrxe maps, and the socket addresses in them, against gcc and the installed rdma_cma.h. */
class RdmacmLayoutTest extends GccLayouts {
    static final Map<String, MemoryLayout> STRUCTS = new LinkedHashMap<>();

    static {
        STRUCTS.put("struct sockaddr_in", SockAddr.IN);
        STRUCTS.put("struct sockaddr_in6", SockAddr.IN6);
        STRUCTS.put("struct sockaddr_storage", SockAddr.STORAGE);
        STRUCTS.put("struct rdma_ib_addr", RdmaAddr.IB_ADDR);
        STRUCTS.put("struct rdma_addr", RdmaAddr.LAYOUT);
        STRUCTS.put("struct rdma_route", RdmaRoute.LAYOUT);
        STRUCTS.put("struct rdma_event_channel", RdmaEventChannel.LAYOUT);
        STRUCTS.put("struct rdma_cm_id", RdmaCmId.LAYOUT);
        STRUCTS.put("struct rdma_conn_param", RdmaConnParam.LAYOUT);
        STRUCTS.put("struct rdma_ud_param", RdmaUdParam.LAYOUT);
        STRUCTS.put("struct rdma_cm_event", RdmaCmEvent.LAYOUT);
    }

    RdmacmLayoutTest() {
        super("rdma/rdma_cma.h", "librdmacm-dev", STRUCTS, 100);
    }

    @Test
    void theAddressesOfAnIdentifierAreReachedThroughItsRoute() {
        assertThat(RdmaCmId.SRC_ADDR).isEqualTo(CLayout.offset(RdmaCmId.LAYOUT, "route") + RdmaRoute.ADDR + RdmaAddr.SRC);
        assertThat(RdmaCmId.DST_ADDR - RdmaCmId.SRC_ADDR).isEqualTo(SockAddr.STORAGE_SIZE);
        assertThat(RdmaCmEvent.PARAM_CONN).isEqualTo(RdmaCmEvent.PARAM_UD);
    }
}
