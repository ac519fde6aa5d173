package io.jrxe.verbs.nativ;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.RdmaCm;
import io.jrxe.verbs.nativ.abi.IbvContext;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * The kernel's connection manager through librdmacm. librdmacm opens each device it binds an
 * identifier to once and keeps it open; jrxe wraps each such ibv_context once, so that the PDs,
 * CQs and MRs a program makes on an identifier's context and the QP rdma_create_qp makes share it.
 */
final class NativeRdmaCm implements RdmaCm {
    /** The character device librdmacm talks to the kernel's RDMA CM through (module rdma_ucm). */
    static final Path RDMA_CM_DEVICE = Path.of("/dev/infiniband/rdma_cm");
    private static final int ENODEV = 19;

    final Rdmacm lib;
    final Ibverbs verbs;
    private final Map<Long, NativeContext> contexts = new ConcurrentHashMap<>();

    NativeRdmaCm(Rdmacm lib, Ibverbs verbs) {
        this.lib = lib;
        this.verbs = verbs;
    }

    @Override
    public String provider() {
        return NativeProvider.NAME;
    }

    /** rdma_create_event_channel; its fd is made non-blocking, so that taking an event never waits in the kernel. */
    @Override
    public CmEventChannel createEventChannel() throws VerbsException {
        MemorySegment channel;
        try {
            channel = lib.create("rdma_create_event_channel");
        } catch (NativeVerbsException e) {
            if (e.nativeErrno() == ENODEV && !Files.exists(RDMA_CM_DEVICE)) {
                throw new NativeVerbsException(ENODEV, e.getMessage() + ": this kernel offers no RDMA connection manager ("
                        + RDMA_CM_DEVICE + " is missing: no RDMA device, or the module rdma_ucm is not loaded)");
            }
            throw e;
        }
        try {
            return new NativeCmEventChannel(this, channel);
        } catch (NativeVerbsException e) {
            lib.call("rdma_destroy_event_channel", channel);
            throw e;
        }
    }

    /** The context wrapping librdmacm's {@code ibv_context} (an identifier's id->verbs), made on first use. */
    NativeContext context(MemorySegment ibvContext) {
        return contexts.computeIfAbsent(ibvContext.address(), a -> {
            MemorySegment ctx = ibvContext.reinterpret(IbvContext.SIZE);
            NativeDevice device = NativeDevice.of(verbs, ctx.get(ADDRESS, IbvContext.DEVICE));
            return new NativeContext(device, verbs, ctx, false);
        });
    }
}
