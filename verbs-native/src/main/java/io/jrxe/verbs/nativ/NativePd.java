package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.OdpCapabilities;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvAhAttr;
import io.jrxe.verbs.nativ.abi.IbvQpInitAttr;
import io.jrxe.verbs.nativ.abi.IbvQpInitAttrEx;
import io.jrxe.verbs.nativ.abi.IbvSrqInitAttr;
import io.jrxe.verbs.nativ.codec.AhAttrCodec;
import io.jrxe.verbs.nativ.codec.QpAttrCodec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** A protection domain (struct ibv_pd) of a kernel device. */
final class NativePd implements Pd {
    private final CloseOnce closing = new CloseOnce();
    private final NativeContext context;
    private final MemorySegment pd;
    /** librdmacm's own PD of a device, which its program may use but not free. */
    private final boolean borrowed;

    NativePd(NativeContext context, MemorySegment pd) {
        this(context, pd, false);
    }

    NativePd(NativeContext context, MemorySegment pd, boolean borrowed) {
        this.context = context;
        this.pd = pd;
        this.borrowed = borrowed;
    }

    MemorySegment pd() {
        return pd;
    }

    /** ibv_reg_mr_iova2: what verbs.h's ibv_reg_mr and ibv_reg_mr_iova macros call for any access flags. */
    @Override
    public Mr regMr(MemorySegment memory, long iova, int access) throws VerbsException {
        if (!memory.isNative()) {
            throw new VerbsException(Errno.EINVAL,
                    "a kernel device registers native memory only (a MemorySegment from an Arena), not a heap array");
        }
        MemorySegment mr = context.lib.create("ibv_reg_mr_iova2", pd, memory, memory.byteSize(), iova, access);
        return new NativeMr(context, mr, memory, iova, access);
    }

    /**
     * ibv_reg_mr(pd, NULL, SIZE_MAX, access): refused before the kernel is asked, as ibv_rc_pingpong -O does, when the
     * device's ODP caps have no IBV_ODP_SUPPORT_IMPLICIT (rxe has none).
     */
    @Override
    public Mr regMrImplicit(int access) throws VerbsException {
        if ((access & Access.ON_DEMAND) == 0) {
            throw new VerbsException(Errno.EINVAL, "an implicit MR needs ON_DEMAND (IBV_ACCESS_ON_DEMAND) in its access");
        }
        if ((context.queryDevice().odpCapabilities().general() & OdpCapabilities.SUPPORT_IMPLICIT) == 0) {
            throw new VerbsException(Errno.EOPNOTSUPP, context.name() + "'s ODP caps have no ODP_SUPPORT_IMPLICIT: it "
                    + "registers no MR over the whole address space");
        }
        MemorySegment mr = context.lib.create("ibv_reg_mr_iova2", pd, MemorySegment.NULL, NativeMr.IMPLICIT_LENGTH, 0L,
                access);
        return new NativeMr(context, mr, null, 0, access);
    }

    /** The provider's alloc_mw, through the ops table as verbs.h's inline ibv_alloc_mw calls it. */
    @Override
    public Mw allocMw(int type) throws VerbsException {
        if (context.allocMw.equals(MemorySegment.NULL)) {
            throw new VerbsException(Errno.EOPNOTSUPP, context.name() + " has no memory windows");
        }
        Ibverbs.Outcome o = context.lib.callPointer(context.allocMw, OpsCalls.ALLOC_MW, pd, type);
        MemorySegment mw = (MemorySegment) o.value();
        if (mw.equals(MemorySegment.NULL)) {
            throw NativeVerbsException.of("ibv_alloc_mw (type " + type + ")", o.errno() != 0 ? o.errno() : 95);
        }
        return new NativeMw(context, this, mw);
    }

    @Override
    public Qp createQp(QpInitAttributes init) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            Qp extended = init.type() == QpType.RC ? createExtended(init, arena) : null;
            if (extended != null) {
                return extended;
            }
            MemorySegment a = initAttr(init, arena);
            MemorySegment qp = context.lib.create("ibv_create_qp", pd, a);
            // ibv_create_qp writes the sizes it gave (at least those asked for) back into cap.
            return new NativeQp(context, qp, init.type(), QpAttrCodec.decodeCap(a.asSlice(IbvQpInitAttr.CAP)),
                    init.type() == QpType.UD, null);
        }
    }

    /**
     * An RC QP made by the provider's create_qp_ex with FLUSH and ATOMIC_WRITE among its send
     * operations, so that it can post them ({@link ExtendedSends}); it posts everything else
     * through ibv_post_send as any QP. Null when the provider has no create_qp_ex or refuses
     * those operations (rdma-core 44 and Linux 6.1's rxe do), and the caller makes the QP as before.
     */
    private Qp createExtended(QpInitAttributes init, Arena arena) throws VerbsException {
        if (context.createQpEx.equals(MemorySegment.NULL)) {
            return null;
        }
        MemorySegment a = arena.allocate(IbvQpInitAttrEx.LAYOUT);
        MemorySegment.copy(initAttr(init, arena), 0, a, 0, IbvQpInitAttr.SIZE); // ibv_qp_init_attr is its prefix
        a.set(JAVA_INT, IbvQpInitAttrEx.COMP_MASK, IbvQpInitAttrEx.INIT_ATTR_PD | IbvQpInitAttrEx.INIT_ATTR_SEND_OPS_FLAGS);
        a.set(ADDRESS, IbvQpInitAttrEx.PD, pd);
        a.set(JAVA_LONG, IbvQpInitAttrEx.SEND_OPS_FLAGS, IbvQpInitAttrEx.WITH_FLUSH | IbvQpInitAttrEx.WITH_ATOMIC_WRITE);
        MemorySegment qp = (MemorySegment) context.lib.callPointer(context.createQpEx, OpsCalls.CREATE_QP_EX, context.ctx, a).value();
        if (qp.equals(MemorySegment.NULL)) {
            return null;
        }
        MemorySegment qpx = (MemorySegment) context.lib.call("ibv_qp_to_qp_ex", qp).value();
        if (qpx.equals(MemorySegment.NULL)) {
            context.lib.check("ibv_destroy_qp", qp);
            return null;
        }
        return new NativeQp(context, qp, init.type(), QpAttrCodec.decodeCap(a.asSlice(IbvQpInitAttr.CAP)), false,
                new ExtendedSends(qpx));
    }

    /** The ibv_qp_init_attr of {@code init} (ibv_create_qp and rdma_create_qp take it), in {@code arena}. */
    static MemorySegment initAttr(QpInitAttributes init, Arena arena) throws VerbsException {
        NativeCq send = NativeContext.own(init.sendCq(), NativeCq.class, "send CQ");
        NativeCq recv = NativeContext.own(init.recvCq(), NativeCq.class, "receive CQ");
        NativeSrq srq = init.srq() == null ? null : NativeContext.own(init.srq(), NativeSrq.class, "SRQ");
        MemorySegment a = arena.allocate(IbvQpInitAttr.LAYOUT);
        a.set(ADDRESS, IbvQpInitAttr.SEND_CQ, send.cq());
        a.set(ADDRESS, IbvQpInitAttr.RECV_CQ, recv.cq());
        a.set(ADDRESS, IbvQpInitAttr.SRQ, srq == null ? MemorySegment.NULL : srq.srq());
        QpAttrCodec.encodeCap(init.caps(), a.asSlice(IbvQpInitAttr.CAP));
        a.set(JAVA_INT, IbvQpInitAttr.QP_TYPE, init.type().verbsValue());
        a.set(JAVA_INT, IbvQpInitAttr.SQ_SIG_ALL, init.sqSigAll() ? 1 : 0);
        return a;
    }

    @Override
    public Srq createSrq(int maxWr, int maxSge) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(IbvSrqInitAttr.LAYOUT);
            a.set(JAVA_INT, IbvSrqInitAttr.ATTR_MAX_WR, maxWr);
            a.set(JAVA_INT, IbvSrqInitAttr.ATTR_MAX_SGE, maxSge);
            MemorySegment srq = context.lib.create("ibv_create_srq", pd, a);
            return new NativeSrq(context, srq, a.get(JAVA_INT, IbvSrqInitAttr.ATTR_MAX_WR),
                    a.get(JAVA_INT, IbvSrqInitAttr.ATTR_MAX_SGE));
        }
    }

    @Override
    public Ah createAh(AddressVector av) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(IbvAhAttr.LAYOUT);
            AhAttrCodec.encode(av, a);
            return new NativeAh(context, context.lib.create("ibv_create_ah", pd, a), av);
        }
    }

    @Override
    public void close() throws VerbsException {
        closing.close(() -> {
            if (borrowed) {
                throw new VerbsException(Errno.EINVAL, "this PD is librdmacm's own for " + context.name()
                        + ": librdmacm frees it, not the program");
            }
            context.lib.check("ibv_dealloc_pd", pd);
        });
    }

    @Override
    public String toString() {
        return "PD of " + context.name();
    }
}
