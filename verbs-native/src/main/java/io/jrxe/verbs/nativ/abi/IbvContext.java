package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_context: an open device, with the provider's ops table and the async event fd. */
public final class IbvContext {
    public static final MemoryLayout LAYOUT = struct("ibv_context",
            POINTER.withName("device"),
            IbvContextOps.LAYOUT.withName("ops"),
            INT.withName("cmd_fd"),
            INT.withName("async_fd"),
            INT.withName("num_comp_vectors"),
            pthreadMutex("mutex"),
            POINTER.withName("abi_compat"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long DEVICE = offset(LAYOUT, "device");
    public static final long OPS = offset(LAYOUT, "ops");
    public static final long CMD_FD = offset(LAYOUT, "cmd_fd");
    public static final long ASYNC_FD = offset(LAYOUT, "async_fd");
    public static final long NUM_COMP_VECTORS = offset(LAYOUT, "num_comp_vectors");

    private IbvContext() {
    }
}
