package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.PortSpace;
import io.jrxe.verbs.nativ.abi.IbvQpInitAttr;
import io.jrxe.verbs.nativ.abi.RdmaCmId;
import io.jrxe.verbs.nativ.abi.RdmaConnParam;
import io.jrxe.verbs.nativ.abi.SockAddr;
import io.jrxe.verbs.nativ.codec.ConnParamCodec;
import io.jrxe.verbs.nativ.codec.QpAttrCodec;
import io.jrxe.verbs.nativ.codec.SockAddrCodec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * An rdma_cm_id. What librdmacm keeps in it (the device, the QP, the addresses, the port) is read
 * from the struct when asked, since librdmacm changes it as the connection moves on. Every call
 * on a destroyed identifier is refused, so that nothing reaches freed memory.
 */
final class NativeCmId implements CmId {
    private final NativeCmEventChannel channel;
    private final Rdmacm lib;
    private final MemorySegment id;
    private final PortSpace space;
    private final Object userContext;
    private NativeQp qp;
    private Pd pd;
    private volatile boolean closed;

    NativeCmId(NativeCmEventChannel channel, MemorySegment id, PortSpace space, Object userContext) {
        this.channel = channel;
        this.lib = channel.cm.lib;
        this.id = id;
        this.space = space;
        this.userContext = userContext;
    }

    long address() {
        return id.address();
    }

    @Override
    public PortSpace portSpace() {
        return space;
    }

    @Override
    public Object userContext() {
        return userContext;
    }

    @Override
    public CmEventChannel channel() {
        return channel;
    }

    @Override
    public void bindAddr(InetSocketAddress address) throws VerbsException {
        open();
        try (Arena arena = Arena.ofConfined()) {
            lib.checked("rdma_bind_addr", SockAddrCodec.describe(address), id, sockaddr(address, arena));
        }
    }

    @Override
    public void resolveAddr(InetSocketAddress source, InetSocketAddress destination, int timeoutMillis) throws VerbsException {
        open();
        if (destination == null) {
            throw new VerbsException(Errno.EINVAL, "rdma_resolve_addr needs a destination address");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = source == null ? MemorySegment.NULL : sockaddr(source, arena);
            lib.checked("rdma_resolve_addr", "from " + SockAddrCodec.describe(source) + " to "
                    + SockAddrCodec.describe(destination) + ", " + timeoutMillis + " ms", id, src, sockaddr(destination, arena),
                    timeoutMillis);
        }
    }

    @Override
    public void resolveRoute(int timeoutMillis) throws VerbsException {
        open();
        lib.checked("rdma_resolve_route", "to " + SockAddrCodec.describe(remoteAddress()) + ", " + timeoutMillis + " ms",
                id, timeoutMillis);
    }

    @Override
    public void listen(int backlog) throws VerbsException {
        open();
        lib.checked("rdma_listen", "on " + SockAddrCodec.describe(localAddress()) + ", backlog " + backlog, id, backlog);
    }

    @Override
    public void connect(ConnectionParameters parameters) throws VerbsException {
        withParameters("rdma_connect", "to", parameters);
    }

    @Override
    public void accept(ConnectionParameters parameters) throws VerbsException {
        withParameters("rdma_accept", "from", parameters);
    }

    /** rdma_connect or rdma_accept: the call with an rdma_conn_param (NULL for null: librdmacm's defaults). */
    private void withParameters(String function, String towards, ConnectionParameters parameters) throws VerbsException {
        open();
        try (Arena arena = Arena.ofConfined()) {
            lib.checked(function, towards + " " + SockAddrCodec.describe(remoteAddress()) + ", " + parameters, id,
                    connParam(parameters, arena));
        }
    }

    @Override
    public void reject(byte[] privateData) throws VerbsException {
        open();
        byte[] data = privateData == null ? new byte[0] : privateData;
        if (data.length > ConnParamCodec.MAX_PRIVATE_DATA) {
            throw new VerbsException(Errno.EINVAL, "rdma_reject: private data of " + data.length
                    + " bytes (at most " + ConnParamCodec.MAX_PRIVATE_DATA + ")");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = data.length == 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_BYTE, data);
            lib.checked("rdma_reject", "from " + SockAddrCodec.describe(remoteAddress()) + ", " + data.length
                    + " bytes of private data", id, p, (byte) data.length);
        }
    }

    @Override
    public void disconnect() throws VerbsException {
        open();
        lib.checked("rdma_disconnect", "from " + SockAddrCodec.describe(remoteAddress()), id);
    }

    /**
     * rdma_create_qp with the identifier's device: the CQs (and SRQ) must come from {@link #context()}; a
     * null {@code pd} is librdmacm's own PD of the device. librdmacm moves the QP to INIT (a UD one to RTS).
     */
    @Override
    public Qp createQp(Pd pd, QpInitAttributes attributes) throws VerbsException {
        open();
        if (qp != null) {
            throw new VerbsException(Errno.EINVAL, "rdma_create_qp: the identifier already has " + qp);
        }
        NativeContext context = context();
        if (context == null) {
            throw new VerbsException(Errno.EINVAL, "rdma_create_qp: the identifier has no device yet (bind or resolve an address first)");
        }
        MemorySegment pdStruct = pd == null ? MemorySegment.NULL : NativeContext.own(pd, NativePd.class, "PD").pd();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment init = NativePd.initAttr(attributes, arena);
            lib.checked("rdma_create_qp", attributes.type() + " on " + context.name() + (pd == null ? ", librdmacm's PD" : ""),
                    id, pdStruct, init);
            // rdma_create_qp writes the sizes it gave (at least those asked for) back into cap, as ibv_create_qp does.
            qp = new NativeQp(context, id.get(ADDRESS, RdmaCmId.QP), attributes.type(),
                    QpAttrCodec.decodeCap(init.asSlice(IbvQpInitAttr.CAP)), attributes.type() == QpType.UD, null, this::destroyQp);
            this.pd = pd != null ? pd : new NativePd(context, id.get(ADDRESS, RdmaCmId.PD), true);
            return qp;
        }
    }

    @Override
    public void destroyQp() throws VerbsException {
        if (qp == null) {
            throw new VerbsException(Errno.EINVAL, "rdma_destroy_qp: the identifier has no QP");
        }
        qp.close();
    }

    /** What closing the QP does: rdma_destroy_qp while the identifier lives, ibv_destroy_qp after. */
    private void destroyQp(MemorySegment q) throws VerbsException {
        if (closed) {
            channel.cm.verbs.check("ibv_destroy_qp", q);
        } else {
            lib.call("rdma_destroy_qp", id);
        }
        qp = null;
        pd = null;
    }

    @Override
    public Qp qp() {
        return qp;
    }

    @Override
    public Pd pd() {
        return pd;
    }

    @Override
    public NativeContext context() {
        return closed ? null : deviceContext();
    }

    private NativeContext deviceContext() {
        MemorySegment verbs = id.get(ADDRESS, RdmaCmId.VERBS);
        return verbs.equals(MemorySegment.NULL) ? null : channel.cm.context(verbs);
    }

    @Override
    public int portNum() {
        return closed ? 0 : id.get(JAVA_BYTE, RdmaCmId.PORT_NUM) & 0xFF;
    }

    @Override
    public InetSocketAddress localAddress() {
        return closed ? null : SockAddrCodec.decode(id.asSlice(RdmaCmId.SRC_ADDR, SockAddr.STORAGE_SIZE));
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return closed ? null : SockAddrCodec.decode(id.asSlice(RdmaCmId.DST_ADDR, SockAddr.STORAGE_SIZE));
    }

    /** rdma_destroy_id; a second close does nothing. A QP still on it stays, and closes with ibv_destroy_qp. */
    @Override
    public void close() throws VerbsException {
        if (closed) {
            return;
        }
        String what = toString();
        closed = true;
        channel.forget(this);
        lib.checked("rdma_destroy_id", what, id);
    }

    private void open() throws VerbsException {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "the CM identifier is destroyed");
        }
    }

    private static MemorySegment sockaddr(InetSocketAddress address, Arena arena) throws VerbsException {
        MemorySegment s = arena.allocate(SockAddr.STORAGE);
        try {
            SockAddrCodec.encode(address, s);
        } catch (IllegalArgumentException e) {
            throw new VerbsException(Errno.EINVAL, e.getMessage());
        }
        return s;
    }

    private static MemorySegment connParam(ConnectionParameters parameters, Arena arena) throws VerbsException {
        if (parameters == null) {
            return MemorySegment.NULL;
        }
        MemorySegment p = arena.allocate(RdmaConnParam.LAYOUT);
        try {
            ConnParamCodec.encode(parameters, p, arena);
        } catch (IllegalArgumentException e) {
            throw new VerbsException(Errno.EINVAL, e.getMessage());
        }
        return p;
    }

    @Override
    public String toString() {
        if (closed) {
            return "CM id (destroyed)";
        }
        InetSocketAddress local = localAddress();
        InetSocketAddress remote = remoteAddress();
        return "CM id " + space + (local != null ? " " + SockAddrCodec.describe(local) : "")
                + (remote != null ? " -> " + SockAddrCodec.describe(remote) : "");
    }
}
