package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/**
 * struct ibv_device_attr_ex: what a provider's query_device_ex fills (ibv_query_device_ex). jrxe reads the original
 * attributes and the on-demand paging caps; the members after them are one opaque block of the size this header
 * gives, and the call is told that size, so a newer provider fills no more than the block holds.
 */
public final class IbvDeviceAttrEx {
    public static final MemoryLayout LAYOUT = struct("ibv_device_attr_ex",
            IbvDeviceAttr.LAYOUT.withName("orig_attr"),
            U32.withName("comp_mask"),
            struct("ibv_odp_caps",
                    U64.withName("general_caps"),
                    struct(null,
                            U32.withName("rc_odp_caps"),
                            U32.withName("uc_odp_caps"),
                            U32.withName("ud_odp_caps")).withName("per_transport_caps")).withName("odp_caps"),
            MemoryLayout.paddingLayout(136));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long ORIG_ATTR = offset(LAYOUT, "orig_attr");
    public static final long GENERAL_ODP_CAPS = offset(LAYOUT, "odp_caps.general_caps");
    public static final long RC_ODP_CAPS = offset(LAYOUT, "odp_caps.per_transport_caps.rc_odp_caps");
    public static final long UC_ODP_CAPS = offset(LAYOUT, "odp_caps.per_transport_caps.uc_odp_caps");
    public static final long UD_ODP_CAPS = offset(LAYOUT, "odp_caps.per_transport_caps.ud_odp_caps");

    private IbvDeviceAttrEx() {
    }
}
