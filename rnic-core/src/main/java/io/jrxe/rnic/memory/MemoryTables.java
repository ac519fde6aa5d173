package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The NIC's memory translation state: the MPT (one entry per MR and memory window, reached by
 * key), the MTT (page addresses) and the address space implicit MRs reach ({@link MappedSegments}).
 * Registration, deregistration, re-registration, memory window allocation, binding and invalidation,
 * mapping and unmapping, and the access check that every data transfer goes through. Owned by the
 * NIC thread: not thread-safe.
 */
public final class MemoryTables {
    private final DeviceAttributes attributes;
    private final TranslationTable mtt;
    private MptEntry[] mpt = new MptEntry[64];
    private int[] freeIndexes = new int[64];
    private int freeCount;
    private int nextIndex = 1;
    private int mrCount;
    private int mwCount;
    /** Pinning reads one byte of every page; the sum goes here so that the reads are not optimised away. */
    @SuppressWarnings("unused")
    private volatile int pinnedSink;

    private final PageFaultHook pageFaults;
    /** The device's on-demand paging, or null when it refuses ON_DEMAND registrations. */
    private final OnDemandPaging odp;
    /** The segments a program mapped into the device's address space: what implicit MRs reach. */
    private final MappedSegments addressSpace = new MappedSegments();
    /** The implicit MRs registered, whose pages an unmapping invalidates. */
    private final List<MptEntry> implicitMrs = new ArrayList<>();

    /** @param mttEntries the MTT's capacity, in 8-byte entries (the device configuration's) */
    /** Whether registered memory must be reachable from any thread: the NIC may run on another one. */
    private final boolean sharedMemoryOnly;
    /** A thread that is nobody's: memory it may reach is reachable from every thread (not confined to one). */
    private static final Thread ANY_OTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });

    public MemoryTables(DeviceAttributes attributes, long mttEntries) {
        this(attributes, mttEntries, PageFaultHook.PINNED, false);
    }

    /**
     * @param sharedMemoryOnly refuse memory confined to one thread (Arena.ofConfined): the NIC runs on another
     */
    public MemoryTables(DeviceAttributes attributes, long mttEntries, PageFaultHook pageFaults, boolean sharedMemoryOnly) {
        this(attributes, mttEntries, pageFaults, sharedMemoryOnly, 1);
    }

    /** @param firstIndex the MPT index of the first key handed out (the device configuration's; below it, none) */
    public MemoryTables(DeviceAttributes attributes, long mttEntries, PageFaultHook pageFaults, boolean sharedMemoryOnly,
                        int firstIndex) {
        this(attributes, mttEntries, pageFaults, sharedMemoryOnly, firstIndex, null);
    }

    /**
     * @param odp the device's on-demand paging (it serves the faults of ON_DEMAND MRs and hands the others to
     *            {@code pageFaults}), or null for a device that refuses ON_DEMAND registrations
     */
    public MemoryTables(DeviceAttributes attributes, long mttEntries, PageFaultHook pageFaults, boolean sharedMemoryOnly,
                        int firstIndex, OnDemandPaging odp) {
        if (firstIndex < 1 || firstIndex > MemoryKey.MAX_INDEX) {
            throw new IllegalArgumentException("the first key index " + firstIndex + " is outside 1.." + MemoryKey.MAX_INDEX);
        }
        this.nextIndex = firstIndex;
        this.attributes = attributes;
        this.mtt = new TranslationTable(mttEntries);
        this.pageFaults = odp != null ? odp : pageFaults;
        this.odp = odp;
        this.sharedMemoryOnly = sharedMemoryOnly;
    }

    public TranslationTable mtt() {
        return mtt;
    }

    /** The device's on-demand paging, or null when it has none. */
    public OnDemandPaging onDemandPaging() {
        return odp;
    }

    /** The segments mapped into the device's address space. */
    public MappedSegments addressSpace() {
        return addressSpace;
    }

    public int mrCount() {
        return mrCount;
    }

    public int mwCount() {
        return mwCount;
    }

    /**
     * Registers native memory as an MR (ibv_reg_mr / ibv_reg_mr_iova): takes an MPT entry and
     * one MTT entry per page, and touches every page, as pinning does; with Access.ON_DEMAND it touches
     * none and leaves the entries empty ({@link OnDemandPaging} brings pages in as the NIC reaches them).
     *
     * @param iova the address the MR's first byte has in keys' address space (the segment's
     *             address for ibv_reg_mr; ignored, 0, with ZERO_BASED)
     */
    public MptEntry registerMr(ProtectionDomain pd, MemorySegment segment, long iova, int access) throws RnicException {
        checkMrArguments(segment, access);
        if (mrCount >= attributes.maxMr()) {
            throw RnicException.exhausted("MR table is full: the device allows max_mr " + attributes.maxMr() + " MRs");
        }
        long pages = pagesOf(segment);
        long mttStart = mtt.allocate(pages, "registering " + TranslationTable.bytes(segment.byteSize()));
        MptEntry e;
        try {
            e = takeEntry();
        } catch (RnicException full) {
            mtt.release(mttStart, pages);
            throw full;
        }
        fill(e, pd, segment, iova, access, mttStart, pages);
        pd.holders().add(e);
        mrCount++;
        return e;
    }

    /**
     * Registers an implicit MR (ibv_reg_mr(pd, NULL, SIZE_MAX, access | IBV_ACCESS_ON_DEMAND)): one MPT entry whose
     * keys reach every segment mapped into the device's address space ({@link MappedSegments}), at iova 0 with
     * length SIZE_MAX (stored as -1). It takes no MTT run and touches no memory: its pages are tracked apart, in its
     * {@link ImplicitPageTable}, as the NIC reaches them.
     *
     * @param access must include Access.ON_DEMAND; ZERO_BASED means nothing for it (its iova is 0 already) and is refused
     */
    public MptEntry registerImplicitMr(ProtectionDomain pd, int access) throws RnicException {
        String accessProblem = Access.checkRegistration(access);
        if (accessProblem != null) {
            throw RnicException.invalid("register implicit MR: " + accessProblem);
        }
        if ((access & Access.ON_DEMAND) == 0) {
            throw RnicException.invalid("register implicit MR: the access must include ON_DEMAND "
                    + "(IBV_ACCESS_ON_DEMAND): an MR over the whole address space cannot be pinned");
        }
        if ((access & Access.ZERO_BASED) != 0) {
            throw RnicException.invalid("register implicit MR: ZERO_BASED does not apply: an implicit MR's iova is 0 "
                    + "and each address is its own");
        }
        if (odp == null || !odp.settings().implicit()) {
            throw new RnicException(Errno.EOPNOTSUPP, "register implicit MR: this device is configured without "
                    + "implicit on-demand paging (its ODP caps have no ODP_SUPPORT_IMPLICIT); turn it on with "
                    + "`jrxe0.odp_implicit = on` in a device file (jrxe0 being the device's name) or "
                    + "DeviceConfig.withImplicitOdp(true)");
        }
        if (mrCount >= attributes.maxMr()) {
            throw RnicException.exhausted("MR table is full: the device allows max_mr " + attributes.maxMr() + " MRs");
        }
        MptEntry e = takeEntry();
        e.kind = KeyKind.MR;
        e.state = MptEntry.State.VALID;
        e.pd = pd;
        e.access = access;
        e.segment = null;
        e.bufferView = null;
        e.iova = 0;
        e.length = -1;
        e.mttOffset = 0;
        e.pageCount = 0;
        e.firstPageOffset = 0;
        e.implicitPages = new ImplicitPageTable();
        implicitMrs.add(e);
        pd.holders().add(e);
        mrCount++;
        return e;
    }

    /**
     * Maps a native segment into the device's address space, where implicit MRs reach it (mmap making memory visible
     * to the MMU): it costs no MTT entry and pins nothing. A mapped segment since freed (its Arena closed) that
     * overlaps it is unmapped first, its pages invalidated, as the freeing unmapped the memory.
     */
    public void mapSegment(MemorySegment segment) throws RnicException {
        checkMemory("map", segment);
        for (MemorySegment freed : addressSpace.map(segment)) {
            invalidateImplicitPages(freed.address(), freed.byteSize());
        }
    }

    /**
     * Unmaps a segment mapped before (the same address and size): what munmap's MMU notifier does, the implicit MRs'
     * pages in its range are invalidated and fault again if it is mapped again. Its memory is not touched: a segment
     * whose Arena is closed unmaps too.
     */
    public void unmapSegment(MemorySegment segment) throws RnicException {
        if (!addressSpace.unmap(segment.address(), segment.byteSize())) {
            throw RnicException.invalid(String.format("unmap: no segment is mapped at 0x%x with %d bytes; unmap "
                    + "takes a segment as it was mapped, whole", segment.address(), segment.byteSize()));
        }
        invalidateImplicitPages(segment.address(), segment.byteSize());
    }

    private void invalidateImplicitPages(long address, long length) {
        for (MptEntry mr : implicitMrs) {
            odp.invalidate(mr, address, length, mtt);
        }
    }

    /** Deregisters an MR; refused while memory windows are bound to it. Its key becomes stale. */
    public void deregisterMr(int key) throws RnicException {
        MptEntry e = lookupOwned(key, KeyKind.MR, "deregister MR");
        if (e.boundWindows > 0) {
            throw RnicException.busy(String.format("cannot deregister MR 0x%08x: %d memory window(s) are bound to it",
                    key, e.boundWindows));
        }
        if (e.isImplicit()) {
            implicitMrs.remove(e);
        } else {
            mtt.release(e.mttOffset, e.pageCount);
        }
        e.pd.holders().remove(e);
        release(e);
        mrCount--;
    }

    /**
     * Re-registers an MR (ibv_rereg_mr): new translation, PD and/or access, keeping the MPT index;
     * the variant changes so the old keys are refused. Null arguments keep what the MR had.
     *
     * @return the entry, whose key() is the new key
     */
    public MptEntry reregisterMr(int key, ProtectionDomain newPd, MemorySegment newSegment, Long newIova,
                                 Integer newAccess) throws RnicException {
        MptEntry e = lookupOwned(key, KeyKind.MR, "re-register MR");
        if (e.isImplicit()) {
            throw new RnicException(Errno.EOPNOTSUPP, String.format("re-register MR 0x%08x: an implicit MR cannot be "
                    + "re-registered; deregister it and register again", key));
        }
        if (e.boundWindows > 0) {
            throw RnicException.busy(String.format("cannot re-register MR 0x%08x: %d memory window(s) are bound to it",
                    key, e.boundWindows));
        }
        int access = newAccess != null ? newAccess : e.access;
        MemorySegment segment = newSegment != null ? newSegment : e.segment;
        checkMrArguments(segment, access);
        long mttStart = e.mttOffset;
        long pages = e.pageCount;
        if (newSegment != null) {
            long newPages = pagesOf(newSegment);
            mtt.release(e.mttOffset, e.pageCount);
            try {
                mttStart = mtt.allocate(newPages, "re-registering " + TranslationTable.bytes(newSegment.byteSize()));
            } catch (RnicException full) {
                e.mttOffset = mtt.allocate(e.pageCount, "restoring the old translation");
                translate(e.mttOffset, e.segment, e.pageCount, e.access);
                throw full;
            }
            pages = newPages;
        }
        long iova = newIova != null ? newIova : newSegment != null ? newSegment.address() : e.iova;
        ProtectionDomain pd = newPd != null ? newPd : e.pd;
        e.pd.holders().remove(e);
        e.nextVariant();
        fill(e, pd, segment, iova, access, mttStart, pages);
        pd.holders().add(e);
        return e;
    }

    /** Allocates a memory window (ibv_alloc_mw), unbound. */
    public MptEntry allocateMw(ProtectionDomain pd, int type) throws RnicException {
        if (type == 1 && !attributes.memoryWindowType1() || type == 2 && !attributes.memoryWindowType2()) {
            throw new RnicException(Errno.EOPNOTSUPP, "this device does not support memory window type " + type);
        }
        if (type != 1 && type != 2) {
            throw RnicException.invalid("memory window type must be 1 or 2, not " + type);
        }
        if (mwCount >= attributes.maxMw()) {
            throw RnicException.exhausted("memory window table is full: the device allows max_mw " + attributes.maxMw());
        }
        MptEntry e = takeEntry();
        e.kind = type == 1 ? KeyKind.MW_TYPE_1 : KeyKind.MW_TYPE_2;
        e.state = MptEntry.State.INVALID;
        e.pd = pd;
        e.access = 0;
        e.iova = 0;
        e.length = 0;
        pd.holders().add(e);
        mwCount++;
        return e;
    }

    public void deallocateMw(int rkey) throws RnicException {
        MptEntry e = lookupWindow(rkey, "deallocate MW");
        unbind(e);
        e.pd.holders().remove(e);
        release(e);
        mwCount--;
    }

    /**
     * Binds a memory window to a range of an MR (type 1: ibv_bind_mw; type 2: the BIND_MW work
     * request, which passes the new key's variant). The MR must allow MW_BIND, the range must be
     * inside it, and REMOTE_WRITE/REMOTE_ATOMIC on the window need LOCAL_WRITE on the MR.
     * A length of 0 unbinds.
     *
     * @param newVariant the key variant to use (type 2), or -1 to take the next one (type 1)
     * @return the window's new R_Key
     */
    public int bindMw(int mwKey, ProtectionDomain qpPd, int mrKey, long addr, long length, int access, int newVariant)
            throws RnicException {
        MptEntry mw = lookupWindow(mwKey, "bind MW");
        if (mw.kind == KeyKind.MW_TYPE_2 && mw.state == MptEntry.State.VALID) {
            throw RnicException.invalid(String.format("bind MW 0x%08x: a type 2 window must be invalidated before it is bound again", mwKey));
        }
        if (length == 0) {
            unbind(mw);
            mw.nextVariant();
            return mw.key();
        }
        MptEntry mr = lookup(mrKey);
        if (mr == null || mr.kind != KeyKind.MR || mr.state != MptEntry.State.VALID) {
            throw RnicException.invalid(String.format("bind MW 0x%08x: MR key 0x%08x is not a valid MR", mwKey, mrKey));
        }
        if (mr.pd != mw.pd || qpPd != null && qpPd != mw.pd) {
            throw RnicException.invalid(String.format("bind MW 0x%08x: the window (%s), the MR (%s) and the QP must share one PD",
                    mwKey, mw.pd, mr.pd));
        }
        if (mr.isImplicit()) {
            throw RnicException.invalid(String.format("bind MW 0x%08x: MR 0x%08x is implicit (the whole address space); "
                    + "bind memory windows to an MR with a range", mwKey, mrKey));
        }
        if ((mr.access & Access.MW_BIND) == 0) {
            throw new RnicException(Errno.EACCES, String.format(
                    "bind MW 0x%08x: MR 0x%08x was not registered with MW_BIND (it has %s)", mwKey, mrKey, Access.names(mr.access)));
        }
        if ((access & (Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)) != 0 && (mr.access & Access.LOCAL_WRITE) == 0) {
            throw new RnicException(Errno.EACCES, String.format(
                    "bind MW 0x%08x: REMOTE_WRITE/REMOTE_ATOMIC on a window need LOCAL_WRITE on its MR", mwKey));
        }
        if ((access & Access.ZERO_BASED) != 0 && mw.kind == KeyKind.MW_TYPE_1) {
            throw RnicException.invalid(String.format("bind MW 0x%08x: type 1 windows cannot be ZERO_BASED", mwKey));
        }
        if (!mr.covers(addr, length)) {
            throw RnicException.invalid(String.format("bind MW 0x%08x: range 0x%x+%d is outside MR 0x%08x (0x%x+%d)",
                    mwKey, addr, length, mrKey, mr.iova, mr.length));
        }
        unbind(mw);
        if (newVariant < 0) {
            mw.nextVariant();
        } else {
            mw.setVariant(newVariant);
        }
        mw.boundMr = mr;
        mw.mrIova = addr;
        mw.iova = (access & Access.ZERO_BASED) != 0 ? 0 : addr;
        mw.length = length;
        mw.access = access & ~Access.ZERO_BASED;
        mw.state = MptEntry.State.VALID;
        mr.boundWindows++;
        return mw.key();
    }

    /**
     * Fast registration (the REG_MR work request): an MR whose key was invalidated gets a new
     * variant, range and rights over the memory it was registered with.
     */
    public AccessError fastRegister(int mrKey, ProtectionDomain qpPd, int newVariant, long iova, long length, int access) {
        int index = MemoryKey.index(mrKey);
        MptEntry e = index > 0 && index < nextIndex && index < mpt.length ? mpt[index] : null;
        if (e == null || e.kind != KeyKind.MR) {
            return AccessError.KEY_NOT_FOUND;
        }
        if (e.state != MptEntry.State.INVALID) {
            return AccessError.NO_PERMISSION;
        }
        if (e.pd != qpPd) {
            return AccessError.WRONG_PD;
        }
        if (e.isImplicit()) {
            // Its range is the whole address space: a REG_MR has no range of its memory to give it.
            return AccessError.NO_PERMISSION;
        }
        if (Access.checkRegistration(access) != null || length < 0 || length > e.segment.byteSize()) {
            return AccessError.OUT_OF_RANGE;
        }
        if (((access ^ e.access) & Access.ON_DEMAND) != 0) {
            // The MTT holds pinned pages or on-demand ones, as registration made it: a REG_MR cannot switch.
            return AccessError.NO_PERMISSION;
        }
        e.setVariant(newVariant);
        e.iova = (access & Access.ZERO_BASED) != 0 ? 0 : iova;
        e.length = length;
        e.access = access;
        e.state = MptEntry.State.VALID;
        return AccessError.NONE;
    }

    /**
     * Invalidates a key (LOCAL_INV, or SEND_WITH_INV from the peer): an MR that allows it, or a
     * type 2 memory window, becomes unusable until re-registered or bound again.
     *
     * @return the reason it was refused, or {@link AccessError#NONE}
     */
    public AccessError invalidate(int key, ProtectionDomain qpPd) {
        MptEntry e = lookup(key);
        if (e == null) {
            return keyError(key);
        }
        if (e.kind == KeyKind.MW_TYPE_1) {
            return AccessError.WRONG_KIND;
        }
        if (qpPd != null && e.pd != qpPd) {
            return AccessError.WRONG_PD;
        }
        if (e.isWindow()) {
            unbind(e);
        } else {
            if (e.boundWindows > 0) {
                return AccessError.NO_PERMISSION;
            }
            e.state = MptEntry.State.INVALID;
        }
        return AccessError.NONE;
    }

    /** The access check of {@link #check(MptEntry, int, ProtectionDomain, long, long, int, boolean)}, for a key. */
    public AccessError check(int key, ProtectionDomain pd, long iova, long length, int rights, boolean remote) {
        return check(lookup(key), key, pd, iova, length, rights, remote);
    }

    /**
     * The access check every transfer goes through: the key reaches a valid entry of this PD that
     * grants the rights, and the range is inside it. The caller looked the entry up ({@link #lookup},
     * null when the key reaches none) and, on {@link AccessError#NONE}, moves bytes through it.
     * Allocation-free.
     *
     * @param remote true for an R_Key (from a packet), false for an L_Key (from an SGE)
     */
    public AccessError check(MptEntry e, int key, ProtectionDomain pd, long iova, long length, int rights, boolean remote) {
        if (e == null) {
            return keyError(key);
        }
        if (e.state != MptEntry.State.VALID) {
            return e.isWindow() ? AccessError.MW_NOT_BOUND : AccessError.INVALIDATED;
        }
        if (e.isWindow() && !remote) {
            return AccessError.WRONG_KIND;
        }
        if (remote && e.kind == KeyKind.MR && (e.access & Access.REMOTE) == 0) {
            return AccessError.WRONG_KIND;
        }
        if (e.pd != pd) {
            return AccessError.WRONG_PD;
        }
        if ((e.access & rights) != rights) {
            return AccessError.NO_PERMISSION;
        }
        if (e.implicitPages != null) {
            return addressSpace.check(iova, length);
        }
        if (!e.covers(iova, length)) {
            return AccessError.OUT_OF_RANGE;
        }
        MemorySegment memory = e.segment();
        if (memory != null && !memory.scope().isAlive()) {
            // A program closed the Arena of registered memory: touching it would throw on the NIC thread.
            return AccessError.MEMORY_FREED;
        }
        return AccessError.NONE;
    }

    /**
     * Whether an entry checked for a whole message (a WRITE's first packet, a READ's request) still stands for a
     * later packet's [iova, iova+length): the key still reaches it, it was not invalidated or unbound, its memory was
     * not freed, and for an implicit MR the range is still mapped. Its PD and rights need no second look.
     * Allocation-free.
     */
    public AccessError recheck(MptEntry e, int key, long iova, long length) {
        if (lookup(key) != e) {
            return keyError(key);
        }
        if (e.state != MptEntry.State.VALID) {
            return e.isWindow() ? AccessError.MW_NOT_BOUND : AccessError.INVALIDATED;
        }
        if (e.implicitPages != null) {
            return addressSpace.check(iova, length);
        }
        MemorySegment memory = e.segment();
        if (memory != null && !memory.scope().isAlive()) {
            return AccessError.MEMORY_FREED;
        }
        return AccessError.NONE;
    }

    /**
     * Host address of an iova inside a checked entry, through the MTT (an implicit MR's own page table); a page
     * with no translation (an entry below the page size: none, or one on its way in) goes to the page-fault hook.
     */
    public long address(MptEntry e, long iova) {
        long index = e.mttIndex(iova);
        long page = pageEntry(e, index);
        if (page < MptEntry.PAGE_SIZE) {
            page = pageFaults.fault(e.isWindow() ? e.boundMr() : e, index, mtt);
        }
        return page + e.pageOffset(iova);
    }

    /**
     * What the translation holds for MTT index {@code mttIndex} of a checked entry (its MTT entry, or an implicit
     * MR's page): a page address, or below the page size none yet. Looking does not fault.
     */
    public long pageEntry(MptEntry e, long mttIndex) {
        return e.implicitPages == null ? mtt.get(mttIndex) : e.implicitPages.get(mttIndex);
    }

    /**
     * The memory a checked entry's [iova, iova+length) lies in, to copy through: the MR's segment, or for an implicit
     * MR the mapped segment holding the range (null when none does: the caller checked that one does).
     */
    public MemorySegment segmentOf(MptEntry e, long iova, long length) {
        return e.implicitPages == null ? e.segment() : addressSpace.covering(iova, length);
    }

    /**
     * Invalidates the pages of [iova, iova+length) of an ON_DEMAND MR, as the kernel's MMU notifier does when the
     * memory behind them changes: the next access by the NIC faults each in again.
     *
     * @return the pages that were present
     */
    public long invalidatePages(int key, long iova, long length) throws RnicException {
        MptEntry e = onDemandRange(key, iova, length, "invalidate");
        return odp.invalidate(e, iova, length, mtt);
    }

    /**
     * ibv_advise_mr's prefetch (PREFETCH, or PREFETCH_WRITE with {@code forWrite}) of [iova, iova+length) of an
     * ON_DEMAND MR: with {@code now} (IBV_ADVISE_MR_FLAG_FLUSH) its pages are present when this returns, otherwise
     * they arrive after the device's fault cost.
     *
     * @return the pages it brought in (now) or asked for (later)
     */
    public long prefetch(int key, long iova, long length, boolean forWrite, boolean now) throws RnicException {
        MptEntry e = onDemandRange(key, iova, length, forWrite ? "prefetch for write" : "prefetch");
        if (forWrite && (e.access & Access.LOCAL_WRITE) == 0) {
            throw RnicException.invalid(String.format("prefetch for write: MR 0x%08x was registered without LOCAL_WRITE",
                    key));
        }
        MemorySegment memory = segmentOf(e, iova, length);
        if (!memory.scope().isAlive()) {
            throw new RnicException(Errno.EFAULT, String.format("prefetch: %s", AccessError.MEMORY_FREED.description()));
        }
        return odp.prefetch(e, iova, length, mtt, now);
    }

    /**
     * How many pages of [iova, iova+length) of an MR are present in the MTT (what an ODP MR has brought in); for an
     * implicit MR the range must be mapped.
     */
    public long presentPages(int key, long iova, long length) throws RnicException {
        MptEntry e = lookupOwned(key, KeyKind.MR, "count the present pages of MR");
        checkRange(e, key, iova, length, "count the present pages");
        long present = 0;
        for (long i = e.mttIndex(iova), last = e.mttIndex(iova + length - 1); i <= last; i++) {
            if (pageEntry(e, i) >= MptEntry.PAGE_SIZE) {
                present++;
            }
        }
        return present;
    }

    /** The MR behind a key, when it is ON_DEMAND and covers the range; else the refusal, saying which. */
    private MptEntry onDemandRange(int key, long iova, long length, String verb) throws RnicException {
        MptEntry e = lookupOwned(key, KeyKind.MR, verb + " MR");
        if (!e.onDemand()) {
            throw RnicException.invalid(String.format("%s: MR 0x%08x was not registered ON_DEMAND (it has %s)", verb, key,
                    Access.names(e.access)));
        }
        checkRange(e, key, iova, length, verb);
        return e;
    }

    /**
     * Refuses a range of no bytes, one outside an MR, and for an implicit MR one not inside a single mapped segment.
     */
    private void checkRange(MptEntry e, int key, long iova, long length, String verb) throws RnicException {
        if (e.isImplicit()) {
            if (length <= 0 || addressSpace.covering(iova, length) == null) {
                throw RnicException.invalid(String.format("%s: range 0x%x+%d of implicit MR 0x%08x is not inside one "
                        + "segment mapped into the device's address space (%d mapped)", verb, iova, length, key,
                        addressSpace.count()));
            }
            return;
        }
        if (length <= 0 || !e.covers(iova, length)) {
            throw RnicException.invalid(String.format("%s: range 0x%x+%d is outside MR 0x%08x (0x%x+%d)", verb, iova,
                    length, key, e.iova, e.length));
        }
    }

    /**
     * Makes one translation visible, for teaching: throws when the key or iova does not resolve. Looking does not
     * fault: a page of an ON_DEMAND MR that is not present is shown as such (page and address 0).
     */
    public Translation inspect(int key, long iova) throws RnicException {
        MptEntry e = lookup(key);
        if (e == null) {
            throw RnicException.invalid(String.format("key 0x%08x: %s", key, keyError(key).description()));
        }
        if (e.state != MptEntry.State.VALID) {
            throw RnicException.invalid(String.format("key 0x%08x: %s", key,
                    (e.isWindow() ? AccessError.MW_NOT_BOUND : AccessError.INVALIDATED).description()));
        }
        if (e.isImplicit() ? addressSpace.covering(iova, 1) == null : !e.covers(iova, 1)) {
            throw RnicException.invalid(e.isImplicit()
                    ? String.format("iova 0x%x of implicit MR 0x%08x is not in a segment mapped into the device's "
                            + "address space", iova, key)
                    : String.format("iova 0x%x is outside key 0x%08x (0x%x+%d)", iova, key, e.iova, e.length));
        }
        long mttIndex = e.mttIndex(iova);
        if (e.onDemand() && pageEntry(e, mttIndex) < MptEntry.PAGE_SIZE) {
            return new Translation(key, e.kind, e.pd.handle(), Access.names(e.access), e.iova, e.length, iova, mttIndex,
                    0, e.pageOffset(iova), 0);
        }
        long address = address(e, iova);
        long page = pageEntry(e, mttIndex);
        return new Translation(key, e.kind, e.pd.handle(), Access.names(e.access), e.iova, e.length, iova, mttIndex,
                page, address - page, address);
    }

    /** The entry a key reaches, or null when its index is free or its variant is stale. */
    public MptEntry lookup(int key) {
        int index = MemoryKey.index(key);
        // Below a first index other than 1 the table has no entries, and may not reach that far.
        if (index <= 0 || index >= nextIndex || index >= mpt.length) {
            return null;
        }
        MptEntry e = mpt[index];
        if (e == null || e.kind == null || e.variant() != MemoryKey.variant(key)) {
            return null;
        }
        return e;
    }

    private AccessError keyError(int key) {
        int index = MemoryKey.index(key);
        if (index <= 0 || index >= nextIndex || index >= mpt.length || mpt[index] == null) {
            return AccessError.KEY_NOT_FOUND;
        }
        // The index was handed out before: the key is from an MR/MW since deregistered or re-keyed.
        return AccessError.WRONG_VARIANT;
    }

    private MptEntry lookupOwned(int key, KeyKind kind, String verb) throws RnicException {
        MptEntry e = lookup(key);
        if (e == null || e.kind != kind) {
            throw RnicException.invalid(String.format("%s 0x%08x: %s", verb, key,
                    e == null ? keyError(key).description() : "the key is not an MR"));
        }
        return e;
    }

    private MptEntry lookupWindow(int key, String verb) throws RnicException {
        MptEntry e = lookup(key);
        if (e == null || !e.isWindow()) {
            throw RnicException.invalid(String.format("%s 0x%08x: %s", verb, key,
                    e == null ? keyError(key).description() : "the key is not a memory window"));
        }
        return e;
    }

    private void checkMrArguments(MemorySegment segment, int access) throws RnicException {
        String accessProblem = Access.checkRegistration(access);
        if (accessProblem != null) {
            throw RnicException.invalid("register MR: " + accessProblem);
        }
        if ((access & Access.ON_DEMAND) != 0 && odp == null) {
            throw new RnicException(Errno.EOPNOTSUPP, "register MR: this device is configured without on-demand paging "
                    + "(ON_DEMAND); register the memory pinned, or enable ODP in the device's configuration");
        }
        checkMemory("register MR", segment);
        if (attributes.maxMrSize() > 0 && Long.compareUnsigned(segment.byteSize(), attributes.maxMrSize()) > 0) {
            throw RnicException.invalid(String.format("register MR: %d bytes exceed the device's max_mr_size %d",
                    segment.byteSize(), attributes.maxMrSize()));
        }
    }

    /** Refuses memory the NIC could not reach: heap, empty, freed, or (with a NIC thread) confined to one thread. */
    private void checkMemory(String verb, MemorySegment segment) throws RnicException {
        if (!segment.isNative()) {
            throw RnicException.invalid(verb + ": the memory must be native (a MemorySegment from an Arena), not a heap segment");
        }
        if (segment.byteSize() == 0) {
            throw RnicException.invalid(verb + ": the memory is empty (0 bytes)");
        }
        if (!segment.scope().isAlive()) {
            throw RnicException.invalid(verb + ": the memory is freed (its Arena was closed)");
        }
        if (sharedMemoryOnly && !segment.isAccessibleBy(ANY_OTHER_THREAD)) {
            throw RnicException.invalid(verb + ": the memory is confined to the thread that made it "
                    + "(Arena.ofConfined): the NIC reads and writes it from a thread of its own. Use memory of "
                    + "Arena.ofShared(), Arena.ofAuto() or Arena.global()");
        }
    }

    private static long pagesOf(MemorySegment segment) {
        long first = segment.address() >>> MptEntry.PAGE_SHIFT;
        long last = (segment.address() + segment.byteSize() - 1) >>> MptEntry.PAGE_SHIFT;
        return last - first + 1;
    }

    private void fill(MptEntry e, ProtectionDomain pd, MemorySegment segment, long iova, int access, long mttStart, long pages) {
        translate(mttStart, segment, pages, access);
        e.kind = KeyKind.MR;
        e.state = MptEntry.State.VALID;
        e.pd = pd;
        e.access = access;
        if (e.segment != segment) {
            e.bufferView = null;
        }
        e.segment = segment;
        e.implicitPages = null;
        e.iova = (access & Access.ZERO_BASED) != 0 ? 0 : iova;
        e.length = segment.byteSize();
        e.mttOffset = mttStart;
        e.pageCount = pages;
        e.firstPageOffset = (int) (segment.address() & (MptEntry.PAGE_SIZE - 1));
    }

    /** Pinned memory: every page in the MTT now. On-demand memory: none yet, the NIC brings them in as it reaches them. */
    private void translate(long mttStart, MemorySegment segment, long pages, int access) {
        if ((access & Access.ON_DEMAND) != 0) {
            mtt.clear(mttStart, pages);
        } else {
            fillMtt(mttStart, segment, pages);
        }
    }

    /** Writes each page's address into the MTT, reading one byte of it first (pinning faults every page in). */
    private void fillMtt(long mttStart, MemorySegment segment, long pages) {
        long base = segment.address() & ~(MptEntry.PAGE_SIZE - 1);
        long firstOffset = segment.address() - base;
        int sink = 0;
        for (long p = 0; p < pages; p++) {
            long offsetInSegment = p == 0 ? 0 : p * MptEntry.PAGE_SIZE - firstOffset;
            sink += segment.get(ValueLayout.JAVA_BYTE, offsetInSegment);
            mtt.set(mttStart + p, base + p * MptEntry.PAGE_SIZE);
        }
        pinnedSink = sink;
    }

    private void unbind(MptEntry mw) {
        if (mw.state == MptEntry.State.VALID && mw.boundMr != null) {
            mw.boundMr.boundWindows--;
        }
        mw.boundMr = null;
        mw.state = MptEntry.State.INVALID;
        mw.length = 0;
    }

    private MptEntry takeEntry() throws RnicException {
        int index;
        if (freeCount > 0) {
            index = freeIndexes[--freeCount];
        } else {
            if (nextIndex > MemoryKey.MAX_INDEX) {
                throw RnicException.exhausted("MPT is full: all 2^24 key indexes are in use");
            }
            index = nextIndex++;
            if (index >= mpt.length) {
                mpt = java.util.Arrays.copyOf(mpt, Math.min(Math.max(mpt.length * 2, index + 1), MemoryKey.MAX_INDEX + 1));
            }
            // A fixed, index-derived first variant: keys differ across indexes and runs replay exactly.
            mpt[index] = new MptEntry(index, index * 0x9E + 0x3B);
        }
        MptEntry e = mpt[index];
        e.nextVariant();
        return e;
    }

    private void release(MptEntry e) {
        e.nextVariant();
        e.kind = null;
        e.state = MptEntry.State.FREE;
        e.pd = null;
        e.segment = null;
        e.bufferView = null;
        e.boundMr = null;
        e.implicitPages = null;
        if (freeCount == freeIndexes.length) {
            freeIndexes = java.util.Arrays.copyOf(freeIndexes, freeCount * 2);
        }
        freeIndexes[freeCount++] = e.index();
    }
}
