package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Errno;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.DatagramParameters;
import io.jrxe.verbs.cm.PortSpace;
import io.jrxe.verbs.nativ.abi.RdmaCmEvent;
import io.jrxe.verbs.nativ.abi.RdmaCmId;
import io.jrxe.verbs.nativ.abi.RdmaConnParam;
import io.jrxe.verbs.nativ.abi.RdmaEventChannel;
import io.jrxe.verbs.nativ.abi.RdmaUdParam;
import io.jrxe.verbs.nativ.codec.ConnParamCodec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * An rdma_event_channel. Its fd is non-blocking: an event is taken with rdma_get_cm_event when
 * poll(2) says one waits, so every wait has a timeout. Each event is copied whole into a CmEvent
 * and acknowledged at once, so that rdma_destroy_id, which waits for the acknowledgement of every
 * event it reported, never waits.
 */
final class NativeCmEventChannel implements CmEventChannel {
    private static final int EAGAIN = 11;

    final NativeRdmaCm cm;
    private final MemorySegment channel;
    private final int fd;
    /** The open identifiers by their struct's address: how an event's id and listen_id are found. */
    private final Map<Long, NativeCmId> ids = new ConcurrentHashMap<>();
    private volatile boolean closed;

    NativeCmEventChannel(NativeRdmaCm cm, MemorySegment channel) throws NativeVerbsException {
        this.cm = cm;
        this.channel = channel.reinterpret(RdmaEventChannel.SIZE);
        this.fd = this.channel.get(JAVA_INT, RdmaEventChannel.FD);
        try (Arena arena = Arena.ofConfined()) {
            Libc.setNonBlocking(fd, arena);
        }
    }

    @Override
    public CmId createId(PortSpace space, Object userContext) throws VerbsException {
        open();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            cm.lib.checked("rdma_create_id", "channel fd " + fd + ", " + space, channel, out, MemorySegment.NULL, space.value());
            return adopt(out.get(ADDRESS, 0), space, userContext);
        }
    }

    @Override
    public CmEvent pollEvent() throws VerbsException {
        open();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            NativeLibrary.Outcome o = cm.lib.call("rdma_get_cm_event", channel, out);
            if ((int) o.value() != 0) {
                if (o.errno() == EAGAIN) {
                    return null;
                }
                throw NativeVerbsException.of("rdma_get_cm_event(channel fd " + fd + ")", o.errno());
            }
            MemorySegment event = out.get(ADDRESS, 0).reinterpret(RdmaCmEvent.SIZE);
            try {
                return copy(event);
            } finally {
                cm.lib.call("rdma_ack_cm_event", event);
            }
        }
    }

    /** Polls the fd in slices (FdWait) up to the timeout; an event librdmacm consumed itself makes it look again. */
    @Override
    public CmEvent getEvent(long timeout, TimeUnit unit) throws VerbsException, InterruptedException {
        // At most a century, so that the deadline cannot overflow (Long.MAX_VALUE days means "for ever").
        long deadline = System.nanoTime() + Math.min(unit.toNanos(timeout), TimeUnit.DAYS.toNanos(36_500));
        while (true) {
            CmEvent e = pollEvent();
            if (e != null) {
                return e;
            }
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0 || !FdWait.readable(fd, left)) {
                return null;
            }
        }
    }

    /** Destroys the identifiers still open (each rdma_destroy_id), then the channel; a second close does nothing. */
    @Override
    public void close() throws VerbsException {
        if (closed) {
            return;
        }
        VerbsException first = null;
        for (NativeCmId id : List.copyOf(ids.values())) {
            try {
                id.close();
            } catch (VerbsException e) {
                first = first == null ? e : first;
            }
        }
        closed = true;
        cm.lib.call("rdma_destroy_event_channel", channel);
        if (first != null) {
            throw first;
        }
    }

    void forget(NativeCmId id) {
        ids.remove(id.address());
    }

    private NativeCmId adopt(MemorySegment id, PortSpace space, Object userContext) {
        NativeCmId made = new NativeCmId(this, id.reinterpret(RdmaCmId.SIZE), space, userContext);
        ids.put(made.address(), made);
        return made;
    }

    /** Every field of the event, its private data copied (it lives in the event, which the ack frees). */
    private CmEvent copy(MemorySegment event) throws VerbsException {
        int number = event.get(JAVA_INT, RdmaCmEvent.EVENT);
        CmEventType type;
        try {
            type = CmEventType.of(number);
        } catch (IllegalArgumentException e) {
            throw new VerbsException(Errno.EOPNOTSUPP, "librdmacm reported event " + number + " ("
                    + cm.lib.eventName(number) + "), which jrxe does not know");
        }
        MemorySegment idStruct = event.get(ADDRESS, RdmaCmEvent.ID).reinterpret(RdmaCmId.SIZE);
        MemorySegment listenStruct = event.get(ADDRESS, RdmaCmEvent.LISTEN_ID);
        NativeCmId listener = listenStruct.equals(MemorySegment.NULL) ? null : ids.get(listenStruct.address());
        NativeCmId id = ids.get(idStruct.address());
        if (id == null) {
            // A CONNECT_REQUEST's identifier is new: librdmacm made it for the request, in the listener's port space.
            PortSpace space = listener != null ? listener.portSpace() : portSpace(idStruct.get(JAVA_INT, RdmaCmId.PS));
            id = adopt(idStruct, space, listener != null ? listener.userContext() : null);
        }
        // librdmacm fills the union by the identifier's QP type, as it does: ud for UD, conn otherwise.
        boolean ud = idStruct.get(JAVA_INT, RdmaCmId.QP_TYPE) == QpType.UD.verbsValue();
        ConnectionParameters connection = ud ? null
                : ConnParamCodec.decode(event.asSlice(RdmaCmEvent.PARAM_CONN, RdmaConnParam.SIZE));
        DatagramParameters datagram = ud ? ConnParamCodec.decodeDatagram(event.asSlice(RdmaCmEvent.PARAM_UD, RdmaUdParam.SIZE))
                : null;
        return new CmEvent(type, id, listener, event.get(JAVA_INT, RdmaCmEvent.STATUS), connection, datagram);
    }

    private static PortSpace portSpace(int value) {
        for (PortSpace p : PortSpace.values()) {
            if (p.value() == value) {
                return p;
            }
        }
        return PortSpace.TCP;
    }

    private void open() throws VerbsException {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "the CM event channel (fd " + fd + ") is closed");
        }
    }

    @Override
    public String toString() {
        return "CM event channel (fd " + fd + ")";
    }
}
