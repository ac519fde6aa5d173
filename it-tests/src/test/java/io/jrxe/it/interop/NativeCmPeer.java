package io.jrxe.it.interop;

import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.DatagramParameters;
import io.jrxe.verbs.cm.PortSpace;
import io.jrxe.verbs.cm.RdmaCm;
import io.jrxe.verbs.facade.Verbs;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static io.jrxe.it.interop.CmEventWait.expect;
import static io.jrxe.it.interop.SmokeReport.expect;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * The native connection manager (librdmacm through java.lang.foreign) on a kernel device, each step
 * printed OK or FAIL: meant for the lab guest, where every identifier lands on rxe0 (which loops its
 * own packets back). Run as {@code NativeCmPeer ADDRESS RPING_SERVER_PORT OWN_SERVER_PORT}: it
 * expects the kernel's `rping -s` on the first port, and once it prints "LISTENING" serves the
 * kernel's `rping -c` on the second (NativeCmInteropTest starts both). Exit status 0 when every
 * step passed, 1 when one failed, 2 for bad arguments.
 */
public final class NativeCmPeer {
    /** Ports of this program's own: where nobody listens, and its native server for its native client. */
    static final int NOBODY_PORT = 7990;
    static final int LOOPBACK_PORT = 7991;
    static final int DATAGRAM_PORT = 7992;
    /** A UD receive holds the 40-byte GRH before the message. */
    private static final int GRH = 40;
    static final int RPING_COUNT = 3;
    static final int RPING_SIZE = 64;
    private static final byte[] HELLO = "jrxe-cm-hello".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] WELCOME = "jrxe-cm-welcome".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MAY_I = "may I?".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] GO_AWAY = "go away".getBytes(StandardCharsets.US_ASCII);
    private static final int MESSAGE = 1000;

    private final SmokeReport report;
    private final PrintStream out;
    private final InetAddress address;
    private final Arena arena = Arena.ofShared();
    private RdmaCm cm;

    NativeCmPeer(InetAddress address, PrintStream out) {
        this.address = address;
        this.out = out;
        this.report = new SmokeReport(out);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3 || args[0].startsWith("-")) {
            System.err.println("usage: NativeCmPeer ADDRESS RPING_SERVER_PORT OWN_SERVER_PORT");
            System.exit(2);
        }
        NativeCmPeer peer = new NativeCmPeer(InetAddress.getByName(args[0]), System.out);
        System.exit(peer.run(Integer.parseInt(args[1]), Integer.parseInt(args[2])));
    }

    int run(int rpingServerPort, int ownServerPort) {
        cm = report.step("the native connection manager", () -> Verbs.nativeProvider().rdmaCm());
        if (cm == null) {
            report.summary();
            return 1;
        }
        report.step("REJECTED, status 8, from a port nobody listens on", this::nobodyListens);
        report.step("a consumer's reject: REJECTED, status 28, with its private data", this::consumerRejects);
        report.step("native server and native client: private data, a SEND each way, disconnect", this::loopback);
        report.step("the UDP port space: SIDR, then a UD SEND to the QP and Q_Key the event gave", this::datagram);
        report.step("rping client against the kernel's rping -s", () -> {
            NativeRping.client(cm, new InetSocketAddress(address, rpingServerPort), RPING_COUNT, RPING_SIZE, out, arena);
            return RPING_COUNT + " pings validated";
        });
        report.step("rping server for the kernel's rping -c",
                () -> NativeRping.server(cm, new InetSocketAddress(address, ownServerPort), out, arena) + " pings served");
        report.summary();
        return report.failed() == 0 ? 0 : 1;
    }

    /** An RC QP in librdmacm's own PD (a null PD), connected towards a port without a listener. */
    private String nobodyListens() throws Exception {
        try (CmEventChannel channel = cm.createEventChannel()) {
            CmId id = resolved(channel, new InetSocketAddress(address, NOBODY_PORT), "nobody");
            Context context = id.context();
            expect(context.device().name().startsWith("rxe"), "the identifier's device is " + context.device().name());
            expect(id.portNum() == 1, "port " + id.portNum());
            Cq cq = context.createCq(4, null);
            id.createQp(null, new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(4, 4, 1, 1, 0), false));
            expect(id.qp().query().state() == QpState.INIT, "rdma_create_qp left the QP in " + id.qp().query().state());
            id.connect(ConnectionParameters.defaults());
            CmEvent e = expect(channel, CmEventType.REJECTED, "nobody", out);
            expect(e.status() == 8, "status " + e.status());
            id.destroyQp();
            expect(id.qp() == null, "the QP is still there after rdma_destroy_qp");
            cq.close();
            return e.toString();
        }
    }

    /** The native server refuses a request with private data; the client sees REJECTED 28 and the data. */
    private String consumerRejects() throws Exception {
        try (CmEventChannel server = cm.createEventChannel(); CmEventChannel client = cm.createEventChannel()) {
            CmId listener = listen(server, "reject server");
            CmId id = resolved(client, new InetSocketAddress(address, LOOPBACK_PORT), "client");
            try (CmEndpoint ep = CmEndpoint.on(id, 4096, arena)) {
                id.connect(ConnectionParameters.defaults().withPrivateData(MAY_I));
                CmEvent request = expect(server, CmEventType.CONNECT_REQUEST, "server", out);
                expect(request.listenId() == listener, "the request names " + request.listenId() + ", not the listener");
                expect(startsWith(request.privateData(), MAY_I), "the request's private data " + text(request.privateData()));
                request.id().reject(GO_AWAY);
                CmEvent rejected = expect(client, CmEventType.REJECTED, "client", out);
                expect(rejected.status() == 28, "status " + rejected.status());
                expect(startsWith(rejected.privateData(), GO_AWAY), "the REJ's private data " + text(rejected.privateData()));
                request.id().close();
            }
            id.close();
            return "status 28, private data \"" + text(GO_AWAY) + "\"";
        }
    }

    /** A connection between two identifiers of this JVM, every event checked, data compared both ways. */
    private String loopback() throws Exception {
        try (CmEventChannel server = cm.createEventChannel(); CmEventChannel client = cm.createEventChannel()) {
            CmId listener = listen(server, "loop server");
            CmId id = resolved(client, new InetSocketAddress(address, LOOPBACK_PORT), "client");
            CmEndpoint active = CmEndpoint.on(id, 4096, arena);
            active.postRecv(1, 0, 2048);
            id.connect(ConnectionParameters.defaults().withResources(2, 3).withPrivateData(HELLO));
            CmEvent request = expect(server, CmEventType.CONNECT_REQUEST, "server", out);
            CmId child = request.id();
            ConnectionParameters asked = request.connection();
            out.println("server: the request carried " + asked);
            expect(request.listenId() == listener && child != listener, "the request is not for a new identifier");
            expect("loop server".equals(child.userContext()), "the new identifier's user context " + child.userContext());
            expect(startsWith(request.privateData(), HELLO), "the request's private data " + text(request.privateData()));
            expect(asked.retryCount() == 7 && asked.rnrRetryCount() == 7, "retry counts in " + asked);
            expect(asked.initiatorDepth() == 2 && asked.responderResources() == 3,
                    "the requester's READ limits, seen from this side, in " + asked);
            expect(child.remoteAddress().equals(id.localAddress()), child.remoteAddress() + " is not " + id.localAddress());
            expect(child.localAddress().getPort() == LOOPBACK_PORT, "the new identifier's port " + child.localAddress());
            expect(child.context() == id.context(), "two wrappers of librdmacm's one context of the device");
            CmEndpoint passive = CmEndpoint.on(child, 4096, arena);
            passive.postRecv(1, 0, 2048);
            child.accept(ConnectionParameters.defaults().withPrivateData(WELCOME));
            CmEvent established = expect(client, CmEventType.ESTABLISHED, "client", out);
            expect(startsWith(established.privateData(), WELCOME), "the REP's private data " + text(established.privateData()));
            expect(server, CmEventType.ESTABLISHED, "server", out);
            expect(active.qp().query().state() == QpState.RTS && passive.qp().query().state() == QpState.RTS,
                    "both QPs in RTS");
            sendAndCompare(active, passive, 3);
            sendAndCompare(passive, active, 11);
            // The DREQ reaches the server as DISCONNECTED; its own disconnect answers with the DREP that ends the
            // client's (without it the client's DISCONNECTED waits for the DREQ's retries to run out).
            id.disconnect();
            expect(server, CmEventType.DISCONNECTED, "server", out);
            child.disconnect();
            expect(client, CmEventType.DISCONNECTED, "client", out);
            expect(active.qp().query().state() == QpState.ERR, "the client's QP after the disconnect");
            active.close();
            passive.close();
            id.close();
            child.close();
            return "ESTABLISHED, " + MESSAGE + " bytes each way, DISCONNECTED";
        }
    }

    /** Two identifiers of the UDP port space: the SIDR exchange's events, then a datagram to where they said. */
    private String datagram() throws Exception {
        try (CmEventChannel server = cm.createEventChannel(); CmEventChannel client = cm.createEventChannel()) {
            CmId listener = server.createId(PortSpace.UDP, "ud server");
            listener.bindAddr(new InetSocketAddress(address, DATAGRAM_PORT));
            listener.listen(4);
            CmId id = client.createId(PortSpace.UDP, "ud client");
            id.resolveAddr(null, new InetSocketAddress(address, DATAGRAM_PORT), 2000);
            expect(client, CmEventType.ADDR_RESOLVED, "ud client", out);
            id.resolveRoute(2000);
            expect(client, CmEventType.ROUTE_RESOLVED, "ud client", out);
            CmEndpoint active = CmEndpoint.on(id, 4096, arena, QpType.UD);
            expect(active.qp().query().state() == QpState.RTS, "librdmacm left the UD QP in " + active.qp().query().state());
            id.connect(ConnectionParameters.defaults().withPrivateData(HELLO));
            CmEvent request = expect(server, CmEventType.CONNECT_REQUEST, "ud server", out);
            expect(request.datagram() != null && request.connection() == null, "a SIDR request's parameters: " + request);
            expect(startsWith(request.privateData(), HELLO), "the SIDR_REQ's private data " + text(request.privateData()));
            CmId child = request.id();
            expect(child.portSpace() == PortSpace.UDP, "the new identifier's port space " + child.portSpace());
            CmEndpoint passive = CmEndpoint.on(child, 4096, arena, QpType.UD);
            passive.postRecv(1, 0, GRH + MESSAGE);
            child.accept(ConnectionParameters.defaults().withPrivateData(WELCOME));
            CmEvent established = expect(client, CmEventType.ESTABLISHED, "ud client", out);
            DatagramParameters to = established.datagram();
            out.println("ud client: the SIDR_REP gave " + to);
            expect(to.qpNumber() == passive.qp().qpNum(), "the SIDR_REP names QP " + to.qpNumber() + ", not "
                    + passive.qp().qpNum());
            expect(to.qkey() == DatagramParameters.UDP_QKEY, "Q_Key 0x" + Integer.toHexString(to.qkey()));
            expect(startsWith(established.privateData(), WELCOME), "the SIDR_REP's private data " + text(established.privateData()));
            Ah ah = active.createAh(to.address());
            MemorySegment source = active.memory.asSlice(2048, MESSAGE);
            for (int i = 0; i < MESSAGE; i++) {
                source.set(JAVA_BYTE, i, (byte) (i * 5 + 1));
            }
            active.postDatagram(2, 2048, MESSAGE, ah, to.qpNumber(), to.qkey());
            active.await(WcOpcode.SEND);
            WorkCompletion wc = passive.await(WcOpcode.RECV);
            expect(wc.byteLen() == GRH + MESSAGE && wc.srcQp() == active.qp().qpNum(), "received " + wc);
            long at = passive.memory.asSlice(GRH, MESSAGE).mismatch(source);
            expect(at == -1, "the datagram differs from byte " + at);
            ah.close();
            active.close();
            passive.close();
            id.close();
            child.close();
            return String.format("QP 0x%06x, Q_Key 0x%08x, %d bytes", to.qpNumber(), to.qkey(), MESSAGE);
        }
    }

    /** A SEND of a known pattern from one side, received and compared byte for byte on the other. */
    private static void sendAndCompare(CmEndpoint from, CmEndpoint to, int seed) throws VerbsException {
        MemorySegment source = from.memory.asSlice(2048, MESSAGE);
        for (int i = 0; i < MESSAGE; i++) {
            source.set(JAVA_BYTE, i, (byte) (i * 7 + seed));
        }
        from.post(WrOpcode.SEND, 2, 2048, MESSAGE, 0, 0);
        from.await(WcOpcode.SEND);
        WorkCompletion wc = to.await(WcOpcode.RECV);
        expect(wc.byteLen() == MESSAGE, "received " + wc.byteLen() + " bytes");
        long at = to.memory.asSlice(0, MESSAGE).mismatch(source);
        expect(at == -1, "the received bytes differ from byte " + at);
        to.postRecv(1, 0, 2048);
    }

    private CmId listen(CmEventChannel channel, String name) throws VerbsException {
        CmId listener = channel.createId(PortSpace.TCP, name);
        listener.bindAddr(new InetSocketAddress(address, LOOPBACK_PORT));
        listener.listen(4);
        expect(listener.localAddress().equals(new InetSocketAddress(address, LOOPBACK_PORT)), "bound to " + listener.localAddress());
        return listener;
    }

    /** A new identifier with its address and route resolved towards {@code to}. */
    private CmId resolved(CmEventChannel channel, InetSocketAddress to, String who) throws Exception {
        CmId id = channel.createId(PortSpace.TCP, who);
        id.resolveAddr(null, to, 2000);
        expect(channel, CmEventType.ADDR_RESOLVED, who, out);
        id.resolveRoute(2000);
        expect(channel, CmEventType.ROUTE_RESOLVED, who, out);
        expect(to.equals(id.remoteAddress()), "resolved towards " + id.remoteAddress());
        return id;
    }

    private static boolean startsWith(byte[] data, byte[] prefix) {
        return data.length >= prefix.length && java.util.Arrays.equals(data, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static String text(byte[] data) {
        int end = 0;
        while (end < data.length && data[end] != 0) {
            end++;
        }
        return new String(data, 0, end, StandardCharsets.ISO_8859_1);
    }
}
