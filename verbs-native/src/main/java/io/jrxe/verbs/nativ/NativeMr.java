package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvMr;
import io.jrxe.verbs.nativ.abi.IbvSge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A memory region of a kernel device (struct ibv_mr) over a MemorySegment, or over the whole address space for an
 * implicit MR (no segment). The keys are read from the struct, which ibv_rereg_mr updates in place.
 */
final class NativeMr implements Mr {
    private final CloseOnce closing = new CloseOnce();
    /** enum ibv_rereg_mr_flags. */
    static final int CHANGE_TRANSLATION = 1;
    static final int CHANGE_PD = 1 << 1;
    static final int CHANGE_ACCESS = 1 << 2;
    /** enum ibv_advise_mr_advice and enum ibv_advise_mr_flags. */
    private static final int ADVICE_PREFETCH = 0;
    private static final int ADVICE_PREFETCH_WRITE = 1;
    private static final int FLAG_FLUSH = 1;
    /** An implicit MR's length, SIZE_MAX, as a signed long. */
    static final long IMPLICIT_LENGTH = -1;
    /** struct ibv_sge's length is a uint32_t. */
    private static final long MAX_SGE_LENGTH = 0xFFFF_FFFFL;

    private final NativeContext context;
    private final MemorySegment mr;
    private volatile MemorySegment memory;
    private volatile long iova;
    private volatile int access;

    NativeMr(NativeContext context, MemorySegment mr, MemorySegment memory, long iova, int access) {
        this.context = context;
        this.mr = mr.reinterpret(IbvMr.SIZE);
        this.memory = memory;
        this.iova = iova;
        this.access = access;
        context.remember(this);
    }

    MemorySegment mr() {
        return mr;
    }

    @Override
    public int lkey() {
        return mr.get(JAVA_INT, IbvMr.LKEY);
    }

    @Override
    public int rkey() {
        return mr.get(JAVA_INT, IbvMr.RKEY);
    }

    /** libibverbs keeps no iova in ibv_mr: this is the one asked for (0 with ZERO_BASED). */
    @Override
    public long iova() {
        return (access & Access.ZERO_BASED) != 0 ? 0 : iova;
    }

    /** The memory's size, or for an implicit MR (no memory of its own) SIZE_MAX read signed. */
    @Override
    public long length() {
        MemorySegment m = memory;
        return m == null ? IMPLICIT_LENGTH : m.byteSize();
    }

    @Override
    public int access() {
        return access;
    }

    @Override
    public MemorySegment memory() {
        return memory;
    }

    @Override
    public void rereg(Pd pd, MemorySegment newMemory, Integer newAccess) throws VerbsException {
        int flags = (pd != null ? CHANGE_PD : 0) | (newMemory != null ? CHANGE_TRANSLATION : 0)
                | (newAccess != null ? CHANGE_ACCESS : 0);
        MemorySegment p = pd == null ? MemorySegment.NULL : NativeContext.own(pd, NativePd.class, "PD").pd();
        MemorySegment m = newMemory == null ? MemorySegment.NULL : newMemory;
        context.lib.check("ibv_rereg_mr", mr, flags, p, m, newMemory == null ? 0L : newMemory.byteSize(),
                newAccess == null ? 0 : newAccess);
        if (newMemory != null) {
            memory = newMemory;
            iova = newMemory.address();
        }
        if (newAccess != null) {
            access = newAccess;
        }
    }

    /**
     * ibv_advise_mr on one SGE over [iova, iova+length) with this MR's lkey, through the provider's advise_mr op
     * (kernel rxe serves it from Linux 6.17, for ON_DEMAND MRs). A provider without the op answers EOPNOTSUPP, as
     * verbs.h's inline does; what the kernel refuses comes back with its errno.
     */
    @Override
    public void advisePrefetch(long iova, long length, boolean forWrite, boolean flush) throws VerbsException {
        if (length < 1 || length > MAX_SGE_LENGTH) {
            throw new VerbsException(Errno.EINVAL, "ibv_advise_mr: a length of " + Long.toUnsignedString(length)
                    + " bytes; one SGE holds 1 to " + MAX_SGE_LENGTH);
        }
        if (context.adviseMr.equals(MemorySegment.NULL)) {
            throw new VerbsException(Errno.EOPNOTSUPP, "ibv_advise_mr: " + context.name() + "'s provider has no advise_mr");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sge = arena.allocate(IbvSge.LAYOUT);
            sge.set(JAVA_LONG, IbvSge.ADDR, iova);
            sge.set(JAVA_INT, IbvSge.LENGTH, (int) length);
            sge.set(JAVA_INT, IbvSge.LKEY, lkey());
            int rc = (int) context.lib.callPointer(context.adviseMr, OpsCalls.ADVISE_MR, mr.get(ADDRESS, IbvMr.PD),
                    forWrite ? ADVICE_PREFETCH_WRITE : ADVICE_PREFETCH, flush ? FLAG_FLUSH : 0, sge, 1).value();
            if (rc != 0) {
                throw NativeVerbsException.of("ibv_advise_mr", rc);
            }
        }
    }

    /** Refused: the kernel invalidates an ON_DEMAND MR's pages itself when the memory changes; no verb asks it to. */
    @Override
    public void invalidate(long iova, long length) throws VerbsException {
        throw new VerbsException(Errno.EOPNOTSUPP,
                "a kernel device's pages are invalidated by the kernel when the memory changes, not by a verb");
    }

    @Override
    public void close() throws VerbsException {
        closing.close(() -> {
            context.lib.check("ibv_dereg_mr", mr);
            context.forget(this);
        });
    }

    @Override
    public String toString() {
        return String.format("MR lkey 0x%08x of %s", lkey(), context.name());
    }
}
