package io.jrxe.verbs.nativ;

import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvQp;
import io.jrxe.verbs.nativ.abi.IbvQpAttr;
import io.jrxe.verbs.nativ.abi.IbvQpInitAttr;
import io.jrxe.verbs.nativ.codec.QpAttrCodec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A queue pair of a kernel device (struct ibv_qp). Posting goes through the provider's
 * post_send/post_recv (qp->context->ops, as verbs.h's inline functions call them) from native
 * work requests allocated once per QP.
 */
final class NativeQp implements Qp {
    private final CloseOnce closing = new CloseOnce();
    private final NativeContext context;
    private final MemorySegment qp;
    private final QpType type;
    private final QpCapabilities caps;
    private final Arena arena = Arena.ofShared();
    private final SendPoster sends;
    private final RecvPoster receives;
    private final Destroyer destroyer;

    /** How the QP is destroyed: ibv_destroy_qp, or rdma_destroy_qp for one that librdmacm made on an identifier. */
    interface Destroyer {
        void destroy(MemorySegment qp) throws VerbsException;
    }

    /** @param extended the QP's FLUSH and ATOMIC_WRITE (made by ibv_create_qp_ex), or null */
    NativeQp(NativeContext context, MemorySegment qp, QpType type, QpCapabilities caps, boolean ud, ExtendedSends extended) {
        this(context, qp, type, caps, ud, extended, q -> context.lib.check("ibv_destroy_qp", q));
    }

    NativeQp(NativeContext context, MemorySegment qp, QpType type, QpCapabilities caps, boolean ud, ExtendedSends extended,
             Destroyer destroyer) {
        this.context = context;
        this.destroyer = destroyer;
        this.qp = qp.reinterpret(IbvQp.SIZE);
        this.type = type;
        this.caps = caps;
        String name = toString();
        this.sends = new SendPoster(arena, context.postSend, this.qp, caps.maxSendWr(), caps.maxSendSge(),
                caps.maxInlineData(), ud, context, extended, "post_send on " + name);
        this.receives = new RecvPoster(arena, context.postRecv, this.qp, caps.maxRecvWr(), caps.maxRecvSge(),
                "post_recv on " + name);
    }

    MemorySegment qp() {
        return qp;
    }

    @Override
    public int qpNum() {
        return qp.get(JAVA_INT, IbvQp.QP_NUM);
    }

    @Override
    public QpType type() {
        return type;
    }

    /** The queue sizes the device gave the QP (at least those asked for). */
    public QpCapabilities caps() {
        return caps;
    }

    @Override
    public void modify(QpAttributes attributes) throws VerbsException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(IbvQpAttr.LAYOUT);
            int mask = QpAttrCodec.encode(attributes, attr);
            try {
                context.lib.check("ibv_modify_qp", qp, attr, mask);
            } catch (NativeVerbsException e) {
                throw new NativeVerbsException(e.nativeErrno(), "modify " + this + " with " + attributes + ": " + e.getMessage());
            }
        }
    }

    @Override
    public QpAttributes query() throws VerbsException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(IbvQpAttr.LAYOUT);
            MemorySegment init = a.allocate(IbvQpInitAttr.LAYOUT);
            context.lib.check("ibv_query_qp", qp, attr, QpAttrCodec.QUERY_MASK, init);
            return QpAttrCodec.decode(attr);
        }
    }

    @Override
    public void postSend(SendWr wr) throws VerbsException {
        sends.post(wr);
    }

    @Override
    public void postRecv(RecvWr wr) throws VerbsException {
        receives.post(wr);
    }

    @Override
    public void attachMcast(byte[] gid, int lid) throws VerbsException {
        mcast("ibv_attach_mcast", "attach", gid, lid);
    }

    @Override
    public void detachMcast(byte[] gid, int lid) throws VerbsException {
        mcast("ibv_detach_mcast", "detach", gid, lid);
    }

    /** ibv_attach_mcast or ibv_detach_mcast with a union ibv_gid of the GID's 16 bytes. */
    private void mcast(String function, String verb, byte[] gid, int lid) throws VerbsException {
        if (gid == null || gid.length != 16) {
            throw new VerbsException(io.jrxe.verbs.Errno.EINVAL, verb + " " + this + ": a GID has 16 bytes, not "
                    + (gid == null ? "null" : gid.length));
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocate(16);
            MemorySegment.copy(gid, 0, g, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, 16);
            context.lib.check(function, qp, g, (short) lid);
        } catch (NativeVerbsException e) {
            throw new NativeVerbsException(e.nativeErrno(), verb + " " + this + " and group " + groupText(gid) + " (LID "
                    + (lid & 0xFFFF) + "): " + e.getMessage());
        }
    }

    /** The group's IP address (an IPv4-mapped GID reads as its IPv4 address). */
    private static String groupText(byte[] gid) {
        try {
            return java.net.InetAddress.getByAddress(gid).getHostAddress();
        } catch (java.net.UnknownHostException e) {
            return java.util.HexFormat.of().formatHex(gid);
        }
    }

    @Override
    public void close() throws VerbsException {
        closing.close(() -> {
            destroyer.destroy(qp);
            arena.close();
        });
    }

    @Override
    public String toString() {
        return String.format("QP 0x%06x of %s", qpNum(), context.name());
    }
}
