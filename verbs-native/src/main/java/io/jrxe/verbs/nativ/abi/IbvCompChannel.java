package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_comp_channel: the fd completion events are read from. */
public final class IbvCompChannel {
    public static final MemoryLayout LAYOUT = struct("ibv_comp_channel",
            POINTER.withName("context"),
            INT.withName("fd"),
            INT.withName("refcnt"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long CONTEXT = offset(LAYOUT, "context");
    public static final long FD = offset(LAYOUT, "fd");
    public static final long REFCNT = offset(LAYOUT, "refcnt");

    private IbvCompChannel() {
    }
}
