package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvMr;
import io.jrxe.verbs.nativ.abi.IbvMw;
import io.jrxe.verbs.nativ.abi.IbvMwBind;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A memory window of a kernel device (struct ibv_mw). libibverbs binds a type 1 window through
 * a QP's send queue (ibv_bind_mw posts a bind work request and its completion comes on the send
 * CQ), so the binding verb here takes the QP; {@link #bind(Mr, long, long, int)} says so.
 */
public final class NativeMw implements Mw {
    private final CloseOnce closing = new CloseOnce();
    private final NativeContext context;
    private final NativePd pd;
    private final MemorySegment mw;

    NativeMw(NativeContext context, NativePd pd, MemorySegment mw) {
        this.context = context;
        this.pd = pd;
        this.mw = mw.reinterpret(IbvMw.SIZE);
        context.remember(this);
    }

    MemorySegment mw() {
        return mw;
    }

    @Override
    public int rkey() {
        return mw.get(JAVA_INT, IbvMw.RKEY);
    }

    @Override
    public int type() {
        return mw.get(JAVA_INT, IbvMw.TYPE);
    }

    @Override
    public int bind(Mr mr, long addr, long length, int access) throws VerbsException {
        throw new VerbsException(Errno.EOPNOTSUPP, "a kernel device binds a type 1 window through a QP's"
                + " send queue: use NativeMw.bind(qp, mr, addr, length, access, wrId, sendFlags)");
    }

    /**
     * ibv_bind_mw: checks as verbs.h's inline does (type 1, the MR in the window's PD), then the
     * provider's bind_mw through the ops table.
     *
     * @param mr null to unbind (with addr and length 0)
     * @return the window's new R_Key
     */
    public int bind(Qp qp, Mr mr, long addr, long length, int access, long wrId, int sendFlags) throws VerbsException {
        NativeQp q = NativeContext.own(qp, NativeQp.class, "QP");
        if (type() != 1) {
            throw new VerbsException(Errno.EINVAL,
                    "a type 2 memory window is bound by a BIND_MW work request, not by ibv_bind_mw");
        }
        MemorySegment mrPtr = MemorySegment.NULL;
        if (mr != null) {
            NativeMr m = NativeContext.own(mr, NativeMr.class, "MR");
            mrPtr = m.mr();
            if (mrPtr.get(ADDRESS, IbvMr.PD).address() != pd.pd().address()) {
                throw new VerbsException(Errno.EPERM, "the MR and the window are in different PDs");
            }
        } else if (addr != 0 || length != 0) {
            throw new VerbsException(Errno.EINVAL, "an unbind (no MR) takes address and length 0");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(IbvMwBind.LAYOUT);
            b.set(JAVA_LONG, IbvMwBind.WR_ID, wrId);
            b.set(JAVA_INT, IbvMwBind.SEND_FLAGS, sendFlags);
            b.set(ADDRESS, IbvMwBind.BIND_INFO_MR, mrPtr);
            b.set(JAVA_LONG, IbvMwBind.BIND_INFO_ADDR, addr);
            b.set(JAVA_LONG, IbvMwBind.BIND_INFO_LENGTH, length);
            b.set(JAVA_INT, IbvMwBind.BIND_INFO_MW_ACCESS_FLAGS, access);
            int rc = (int) context.lib.callPointer(context.bindMw, OpsCalls.BIND_MW, q.qp(), mw, b).value();
            if (rc != 0) {
                throw NativeVerbsException.of("ibv_bind_mw", Math.abs(rc));
            }
        }
        return rkey();
    }

    @Override
    public void close() throws VerbsException {
        closing.close(() -> {
            int rc = (int) context.lib.callPointer(context.deallocMw, OpsCalls.DEALLOC_MW, mw).value();
            if (rc != 0) {
                throw NativeVerbsException.of("ibv_dealloc_mw", Math.abs(rc));
            }
            context.forget(this);
        });
    }

    @Override
    public String toString() {
        return String.format("MW type %d rkey 0x%08x of %s", type(), rkey(), context.name());
    }
}
