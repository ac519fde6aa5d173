package io.jrxe.verbs.nativ;

import io.jrxe.verbs.AddressSpace;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.OdpCapabilities;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvContext;
import io.jrxe.verbs.nativ.abi.IbvContextOps;
import io.jrxe.verbs.nativ.abi.IbvDeviceAttr;
import io.jrxe.verbs.nativ.abi.IbvDeviceAttrEx;
import io.jrxe.verbs.nativ.abi.IbvGidEntry;
import io.jrxe.verbs.nativ.abi.IbvPortAttr;
import io.jrxe.verbs.nativ.codec.DeviceAttrDecoder;
import io.jrxe.verbs.nativ.codec.GidEntryDecoder;
import io.jrxe.verbs.nativ.codec.Handles;
import io.jrxe.verbs.nativ.codec.NativeOrder;
import io.jrxe.verbs.nativ.codec.PortAttrDecoder;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * An open kernel device (struct ibv_context). It keeps the provider's ops-table pointers the
 * data path calls through, and the AHs, windows and MRs it made, so that a work request that
 * names one by number (jrxe's way) can be given its pointer (libibverbs' way). One that
 * librdmacm opened (an identifier's id->verbs) is borrowed: closing it leaves it open.
 */
final class NativeContext implements Context, Handles {
    private final CloseOnce closing = new CloseOnce();
    private final NativeDevice device;
    final Ibverbs lib;
    final MemorySegment ctx;
    final MemorySegment postSend;
    final MemorySegment postRecv;
    final MemorySegment postSrqRecv;
    final MemorySegment pollCq;
    final MemorySegment reqNotifyCq;
    final MemorySegment allocMw;
    final MemorySegment bindMw;
    final MemorySegment deallocMw;
    /** The provider's create_qp_ex (what verbs.h's ibv_create_qp_ex calls), or NULL when it has none. */
    final MemorySegment createQpEx;
    /** The provider's query_device_ex (what ibv_query_device_ex calls), or NULL when it has none. */
    private final MemorySegment queryDeviceEx;
    /** The provider's advise_mr (what ibv_advise_mr calls), or NULL when it has none. */
    final MemorySegment adviseMr;
    private final AsyncEvents events;
    private final List<NativeAh> ahs = new CopyOnWriteArrayList<>();
    private final List<NativeMw> mws = new CopyOnWriteArrayList<>();
    private final List<NativeMr> mrs = new CopyOnWriteArrayList<>();
    private final Map<Long, NativeCq> cqs = new ConcurrentHashMap<>();
    private final boolean owned;

    /** @param owned whether closing it closes the device: false for librdmacm's, which librdmacm keeps open */
    NativeContext(NativeDevice device, Ibverbs lib, MemorySegment context, boolean owned) {
        this.device = device;
        this.owned = owned;
        this.lib = lib;
        this.ctx = context.reinterpret(IbvContext.SIZE);
        long ops = IbvContext.OPS;
        this.postSend = ctx.get(ADDRESS, ops + IbvContextOps.POST_SEND);
        this.postRecv = ctx.get(ADDRESS, ops + IbvContextOps.POST_RECV);
        this.postSrqRecv = ctx.get(ADDRESS, ops + IbvContextOps.POST_SRQ_RECV);
        this.pollCq = ctx.get(ADDRESS, ops + IbvContextOps.POLL_CQ);
        this.reqNotifyCq = ctx.get(ADDRESS, ops + IbvContextOps.REQ_NOTIFY_CQ);
        this.allocMw = ctx.get(ADDRESS, ops + IbvContextOps.ALLOC_MW);
        this.bindMw = ctx.get(ADDRESS, ops + IbvContextOps.BIND_MW);
        this.deallocMw = ctx.get(ADDRESS, ops + IbvContextOps.DEALLOC_MW);
        this.createQpEx = extendedOp(IbvContext.VERBS_CREATE_QP_EX_BEFORE);
        this.queryDeviceEx = extendedOp(IbvContext.VERBS_QUERY_DEVICE_EX_BEFORE);
        this.adviseMr = extendedOp(IbvContext.VERBS_ADVISE_MR_BEFORE);
        this.events = new AsyncEvents(this, ctx.get(JAVA_INT, IbvContext.ASYNC_FD));
    }

    /**
     * An op of the struct verbs_context around this context, {@code before} bytes ahead of it, as
     * verbs.h's verbs_get_ctx_op finds it: NULL unless the context is extended and the extended
     * part is large enough to hold the op.
     */
    private MemorySegment extendedOp(long before) {
        if (ctx.get(JAVA_LONG, IbvContext.ABI_COMPAT) != IbvContext.ABI_IS_EXTENDED) {
            return MemorySegment.NULL;
        }
        MemorySegment extended = MemorySegment.ofAddress(ctx.address() - before).reinterpret(before);
        long size = extended.get(JAVA_LONG, before - IbvContext.VERBS_SZ_BEFORE);
        return size < before + IbvContext.SIZE ? MemorySegment.NULL : extended.get(ADDRESS, 0);
    }

    @Override
    public Device device() {
        return device;
    }

    String name() {
        return device.name();
    }

    @Override
    public DeviceAttributes queryDevice() throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ex = arena.allocate(IbvDeviceAttrEx.LAYOUT); // zeroed: a provider fills what it knows
            MemorySegment orig = ex.asSlice(IbvDeviceAttrEx.ORIG_ATTR, IbvDeviceAttr.LAYOUT.byteSize());
            if (!queryDeviceEx.equals(MemorySegment.NULL)) {
                // As ibv_query_device_ex: no input (comp_mask 0), and a provider without it answers as the legacy call.
                int rc = (int) lib.callPointer(queryDeviceEx, OpsCalls.QUERY_DEVICE_EX, ctx, MemorySegment.NULL, ex,
                        IbvDeviceAttrEx.SIZE).value();
                if (rc == 0) {
                    return DeviceAttrDecoder.decode(orig, DeviceAttrDecoder.odpCaps(ex));
                }
                if (rc != Errno.EOPNOTSUPP.value() && rc != Errno.ENOSYS.value()) {
                    throw NativeVerbsException.of("ibv_query_device_ex", rc);
                }
            }
            lib.check("ibv_query_device", ctx, orig);
            return DeviceAttrDecoder.decode(orig, OdpCapabilities.NONE);
        }
    }

    @Override
    public PortInfo queryPort(int port) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(IbvPortAttr.LAYOUT); // zeroed: the call fills a prefix of it
            lib.check("ibv_query_port", ctx, (byte) port, attr);
            return PortAttrDecoder.decode(attr);
        }
    }

    @Override
    public GidEntry queryGid(int port, int index) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment entry = arena.allocate(IbvGidEntry.LAYOUT);
            lib.check("_ibv_query_gid_ex", ctx, port, index, entry, 0, IbvGidEntry.SIZE);
            GidEntry gid = GidEntryDecoder.decode(entry);
            if (gid == null) {
                throw new VerbsException(Errno.EOPNOTSUPP, "GID " + index + " of port " + port + " of "
                        + name() + " is an InfiniBand GID; jrxe describes RoCE GIDs only");
            }
            return gid;
        }
    }

    /** The port's valid entries (an empty slot, or one with an InfiniBand GID, is left out). */
    @Override
    public List<GidEntry> gidTable(int port) throws VerbsException {
        int length = queryPort(port).gidTableLength();
        List<GidEntry> table = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            try {
                table.add(queryGid(port, i));
            } catch (VerbsException e) {
                // ENODATA for an unused index: ibv_devinfo skips those too.
            }
        }
        return table;
    }

    @Override
    public int queryPkey(int port, int index) throws VerbsException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pkey = arena.allocate(JAVA_SHORT);
            lib.check("ibv_query_pkey", ctx, (byte) port, index, pkey);
            return NativeOrder.fromBe16(pkey.get(JAVA_SHORT, 0));
        }
    }

    @Override
    public Pd allocPd() throws VerbsException {
        return new NativePd(this, lib.create("ibv_alloc_pd", ctx));
    }

    @Override
    public CompChannel createCompChannel() throws VerbsException {
        return new NativeCompChannel(this, lib.create("ibv_create_comp_channel", ctx));
    }

    @Override
    public Cq createCq(int entries, CompChannel channel) throws VerbsException {
        MemorySegment ch = channel == null ? MemorySegment.NULL : own(channel, NativeCompChannel.class, "completion channel").channel();
        MemorySegment cq = lib.create("ibv_create_cq", ctx, entries, MemorySegment.NULL, ch, 0);
        NativeCq c = new NativeCq(this, cq);
        cqs.put(cq.address(), c);
        return c;
    }

    @Override
    public AsyncEvent pollAsyncEvent() throws VerbsException {
        return events.next(0);
    }

    @Override
    public AsyncEvent awaitAsyncEvent(long timeout, TimeUnit unit) throws VerbsException, InterruptedException {
        return events.await(unit.toMillis(timeout));
    }

    /** The process's own: see {@link NativeAddressSpace}. */
    @Override
    public AddressSpace addressSpace() {
        return NativeAddressSpace.PROCESS;
    }

    /** The port's hw_counters from sysfs (rxe's names), as `rdma statistic` shows them. */
    @Override
    public Map<String, Long> counters() {
        return SysfsCounters.read(device.sysfsPath(), 1);
    }

    /** ibv_close_device; nothing for a context librdmacm opened (it closes that one itself). */
    @Override
    public void close() throws VerbsException {
        closing.close(() -> {
            if (owned) {
                lib.check("ibv_close_device", ctx);
            }
        });
    }

    NativeCq cq(long address) {
        return cqs.get(address);
    }

    void forget(NativeCq cq) {
        cqs.remove(cq.cq().address());
    }

    void remember(NativeAh ah) {
        ahs.add(ah);
    }

    void forget(NativeAh ah) {
        ahs.remove(ah);
    }

    void remember(NativeMw mw) {
        mws.add(mw);
    }

    void forget(NativeMw mw) {
        mws.remove(mw);
    }

    void remember(NativeMr mr) {
        mrs.add(mr);
    }

    void forget(NativeMr mr) {
        mrs.remove(mr);
    }

    // Handles: looked up by index (no iterator), so that posting a UD send or a bind allocates nothing.

    @Override
    public MemorySegment ah(int handle) {
        for (int i = 0; i < ahs.size(); i++) {
            NativeAh a = ahs.get(i);
            if (a.handle() == handle) {
                return a.ah();
            }
        }
        return MemorySegment.NULL;
    }

    @Override
    public MemorySegment mw(int rkey) {
        return byKeyIndex(mws, NativeMw::rkey, rkey, NativeMw::mw);
    }

    @Override
    public MemorySegment mr(int lkey) {
        return byKeyIndex(mrs, NativeMr::lkey, lkey, NativeMr::mr);
    }

    /**
     * The struct of the object in {@code list} whose key has the index (upper 24 bits) of {@code key}, or NULL: by
     * the index because a type 2 bind changes the low 8 bits, which the struct may not show. The method references
     * capture nothing, so a lookup allocates nothing.
     */
    private static <T> MemorySegment byKeyIndex(List<T> list, ToIntFunction<T> keyOf, int key,
                                                Function<T, MemorySegment> structOf) {
        for (int i = 0; i < list.size(); i++) {
            T t = list.get(i);
            if (keyOf.applyAsInt(t) >>> 8 == key >>> 8) {
                return structOf.apply(t);
            }
        }
        return MemorySegment.NULL;
    }

    /** The native object behind a facade object, or a clear refusal when it comes from another provider. */
    static <T> T own(Object facadeObject, Class<T> type, String what) throws VerbsException {
        if (!type.isInstance(facadeObject)) {
            throw new VerbsException(Errno.EINVAL, what + " " + facadeObject
                    + " does not belong to a native device");
        }
        return type.cast(facadeObject);
    }
}
