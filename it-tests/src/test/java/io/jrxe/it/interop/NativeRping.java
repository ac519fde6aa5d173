package io.jrxe.it.interop;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.PortSpace;
import io.jrxe.verbs.cm.RdmaCm;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static io.jrxe.it.interop.CmEventWait.expect;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * rdma-core's rping protocol, as either side, over the native CM, so that the kernel's own
 * {@code rping} is the peer. Each ping: the client SENDs where its source buffer is (address,
 * rkey, length: 16 bytes, big-endian); the server RDMA READs it and SENDs "go ahead"; the client
 * SENDs where its sink buffer is; the server RDMA WRITEs what it read there and SENDs "go ahead"
 * again; the client compares sink with source. The client ends it by disconnecting.
 */
final class NativeRping {
    private static final int INFO = 16;
    /** Where each part lives in the endpoint's one buffer: received info, sent info, source, sink. */
    private static final long RECV_INFO = 0;
    private static final long SEND_INFO = 64;
    private static final long SOURCE = 4096;
    private static final int MAX_SIZE = 64 * 1024;
    private static final long SINK = SOURCE + MAX_SIZE;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private NativeRping() {
    }

    /** Pings {@code count} times with {@code size}-byte messages, as `rping -c -V` does; prints "ping data: ..." each. */
    static void client(RdmaCm cm, InetSocketAddress server, int count, int size, PrintStream out, Arena arena)
            throws VerbsException, InterruptedException {
        try (CmEventChannel channel = cm.createEventChannel()) {
            CmId id = channel.createId(PortSpace.TCP, "rping client");
            id.resolveAddr(null, server, 2000);
            expect(channel, CmEventType.ADDR_RESOLVED, "client", out);
            id.resolveRoute(2000);
            expect(channel, CmEventType.ROUTE_RESOLVED, "client", out);
            try (CmEndpoint ep = CmEndpoint.on(id, (int) SINK + MAX_SIZE, arena)) {
                ep.postRecv(1, RECV_INFO, INFO);
                id.connect(ConnectionParameters.defaults());
                expect(channel, CmEventType.ESTABLISHED, "client", out);
                for (int ping = 0; ping < count; ping++) {
                    fillSource(ep.memory, ping, size);
                    advertise(ep, SOURCE, size);
                    goAhead(ep);
                    advertise(ep, SINK, size);
                    goAhead(ep);
                    MemorySegment source = ep.memory.asSlice(SOURCE, size);
                    MemorySegment sink = ep.memory.asSlice(SINK, size);
                    if (source.mismatch(sink) != -1) {
                        throw new AssertionError("data mismatch in ping " + ping + " at byte " + source.mismatch(sink));
                    }
                    out.println("ping data: " + sink.getString(0));
                }
                id.disconnect();
                expect(channel, CmEventType.DISCONNECTED, "client", out);
            }
        }
    }

    /**
     * Serves one rping client on {@code bind}, as `rping -s -v` does: prints "LISTENING on ..." once it
     * listens, "server ping data: ..." for each ping it READ, and returns the number of pings served.
     */
    static int server(RdmaCm cm, InetSocketAddress bind, PrintStream out, Arena arena)
            throws VerbsException, InterruptedException {
        try (CmEventChannel channel = cm.createEventChannel()) {
            CmId listener = channel.createId(PortSpace.TCP, "rping server");
            listener.bindAddr(bind);
            listener.listen(3);
            out.println("LISTENING on " + bind.getAddress().getHostAddress() + " port " + bind.getPort());
            out.flush();
            CmEvent request = expect(channel, CmEventType.CONNECT_REQUEST, "server", out);
            if (request.listenId() != listener || request.id() == listener) {
                throw new AssertionError("the request came to " + request.listenId() + " for " + request.id());
            }
            CmId child = request.id();
            int pings = 0;
            try (CmEndpoint ep = CmEndpoint.on(child, (int) SINK + MAX_SIZE, arena)) {
                ep.postRecv(1, RECV_INFO, INFO);
                child.accept(ConnectionParameters.defaults());
                expect(channel, CmEventType.ESTABLISHED, "server", out);
                while (receiveOrDisconnect(ep, channel, out)) {
                    Advert source = advert(ep);
                    ep.post(WrOpcode.RDMA_READ, 2, SINK, source.length(), source.address(), source.rkey());
                    ep.await(WcOpcode.RDMA_READ);
                    String data = ep.memory.asSlice(SINK, source.length()).getString(0);
                    out.println("server ping data: " + data);
                    ep.post(WrOpcode.SEND, 3, SEND_INFO, INFO, 0, 0);
                    ep.await(WcOpcode.SEND);
                    if (!receiveOrDisconnect(ep, channel, out)) {
                        throw new AssertionError("the client disconnected in the middle of ping " + pings);
                    }
                    Advert sink = advert(ep);
                    int length = data.getBytes(StandardCharsets.ISO_8859_1).length + 1;  // the string and its NUL, as rping
                    ep.post(WrOpcode.RDMA_WRITE, 4, SINK, Math.min(length, sink.length()), sink.address(), sink.rkey());
                    ep.await(WcOpcode.RDMA_WRITE);
                    ep.post(WrOpcode.SEND, 5, SEND_INFO, INFO, 0, 0);
                    ep.await(WcOpcode.SEND);
                    pings++;
                }
                child.disconnect();   // as rping's server does once the client has gone
            }
            child.close();
            return pings;
        }
    }

    /** "rdma-ping-N: " then letters from 'A' + N on, wrapping after 'z', NUL-terminated: rping's pattern. */
    private static void fillSource(MemorySegment memory, int ping, int size) {
        byte[] head = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        MemorySegment source = memory.asSlice(SOURCE, size);
        int c = 65 + ping % 58;
        for (int i = 0; i < size - 1; i++) {
            if (i < head.length) {
                source.set(JAVA_BYTE, i, head[i]);
            } else {
                source.set(JAVA_BYTE, i, (byte) c);
                c = c == 122 ? 65 : c + 1;
            }
        }
        source.set(JAVA_BYTE, size - 1, (byte) 0);
        memory.asSlice(SINK, size).fill((byte) 0);
    }

    /** SENDs where {@code offset} of the buffer is (address, rkey, length). */
    private static void advertise(CmEndpoint ep, long offset, int size) throws VerbsException {
        MemorySegment info = ep.memory.asSlice(SEND_INFO, INFO);
        info.set(JAVA_LONG_UNALIGNED.withOrder(BE), 0, ep.memory.address() + offset);
        info.set(JAVA_INT_UNALIGNED.withOrder(BE), 8, ep.mr.rkey());
        info.set(JAVA_INT_UNALIGNED.withOrder(BE), 12, size);
        ep.post(WrOpcode.SEND, 10, SEND_INFO, INFO, 0, 0);
        ep.await(WcOpcode.SEND);
    }

    /** The server's "go ahead": a 16-byte SEND, answered by posting the receive again. */
    private static void goAhead(CmEndpoint ep) throws VerbsException {
        WorkCompletion wc = ep.await(WcOpcode.RECV);
        if (wc.byteLen() != INFO) {
            throw new AssertionError("the server sent " + wc.byteLen() + " bytes, not " + INFO);
        }
        ep.postRecv(1, RECV_INFO, INFO);
    }

    private record Advert(long address, int rkey, int length) {
    }

    /** The client's advert just received; the receive is posted again for the next. */
    private static Advert advert(CmEndpoint ep) throws VerbsException {
        MemorySegment info = ep.memory.asSlice(RECV_INFO, INFO);
        Advert a = new Advert(info.get(JAVA_LONG_UNALIGNED.withOrder(BE), 0), info.get(JAVA_INT_UNALIGNED.withOrder(BE), 8),
                info.get(JAVA_INT_UNALIGNED.withOrder(BE), 12));
        if (a.length() <= 0 || a.length() > MAX_SIZE) {
            throw new AssertionError("the client advertised " + a.length() + " bytes");
        }
        ep.postRecv(1, RECV_INFO, INFO);
        return a;
    }

    /** Waits for the client's next advert (true) or its disconnect (false), whichever comes first. */
    private static boolean receiveOrDisconnect(CmEndpoint ep, CmEventChannel channel, PrintStream out)
            throws VerbsException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CmEventWait.TIMEOUT_SECONDS);
        while (System.nanoTime() - deadline < 0) {
            WorkCompletion wc = ep.poll(WcOpcode.RECV);
            if (wc != null) {
                if (wc.byteLen() != INFO) {
                    throw new AssertionError("the client sent " + wc.byteLen() + " bytes, not " + INFO);
                }
                return true;
            }
            CmEvent e = channel.getEvent(2, TimeUnit.MILLISECONDS);   // the idle wait: on the CM fd
            if (e != null) {
                out.println("server: " + e);
                if (e.type() == CmEventType.DISCONNECTED) {
                    return false;
                }
                throw new AssertionError("server: unexpected " + e);
            }
        }
        throw new AssertionError("server: neither a SEND nor a disconnect from the client within "
                + CmEventWait.TIMEOUT_SECONDS + " s");
    }
}
