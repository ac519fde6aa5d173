package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.DatagramParameters;
import io.jrxe.verbs.cm.PortSpace;
import io.jrxe.verbs.cm.RdmaCm;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The librdmacm-shaped API over the CM of two jrxe NICs on a simulated network (or the shared-memory wire,
 * {@link FixtureWire}): the program's steps as rping and
 * ucmatose take them (resolve, route, QP on the identifier, connect / listen, accept), the events in their order
 * with their status and private data, the IP CM header's addresses on the passive side, and traffic on the QPs
 * the CM connected.
 */
class RdmaCmApiTest {
    private static final long SECOND = 1_000_000_000L;
    private final FixtureWire wire = new FixtureWire(7);
    private final Arena arena = Arena.ofShared();
    private final List<EmulatedDevice> devices = new ArrayList<>();
    private final RdmaCm cm = Verbs.emulated().rdmaCm();

    @AfterEach
    void tearDown() {
        wire.close();
        arena.close();
    }

    private EmulatedDevice device(String ip) throws Exception {
        EmulatedDevice d = wire.device(DeviceConfig.of("cmapi-" + ip, InetAddress.getByName(ip)).withInterfaceMtu(1500));
        devices.add(d);
        return d;
    }

    /** Runs the wire until {@code done} (on the shared-memory wire, the devices' NICs on this thread). */
    private boolean runUntil(java.util.function.BooleanSupplier done, long virtualNanos) {
        return wire.runUntil(() -> devices.forEach(wire::invoke), done, virtualNanos);
    }

    private static InetSocketAddress at(String ip, int port) throws Exception {
        return new InetSocketAddress(InetAddress.getByName(ip), port);
    }

    /** Runs virtual time until the channel has an event, and returns it, checking its type. */
    private CmEvent next(CmEventChannel ch, CmEventType expected) throws Exception {
        CmEvent[] got = new CmEvent[1];
        boolean came = runUntil(() -> {
            try {
                got[0] = ch.pollEvent();
            } catch (VerbsException e) {
                throw new IllegalStateException(e);
            }
            return got[0] != null;
        }, 10 * SECOND);
        assertThat(came).as("an event within 10 s virtual, expecting " + expected).isTrue();
        assertThat(got[0].type()).as(got[0].toString()).isEqualTo(expected);
        return got[0];
    }

    private static QpInitAttributes rc(Cq cq) {
        return new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(16, 16, 1, 1, 0), false);
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void anActiveAndAPassiveSideConnectExchangePrivateDataSendAndDisconnect() throws Exception {
        device("10.1.0.1");
        device("10.1.0.2");
        try (CmEventChannel serverEvents = cm.createEventChannel(); CmEventChannel clientEvents = cm.createEventChannel()) {
            CmId listener = serverEvents.createId(PortSpace.TCP, "server");
            listener.bindAddr(at("10.1.0.2", 7174));
            listener.listen(4);

            CmId client = clientEvents.createId(PortSpace.TCP, "client");
            client.resolveAddr(at("10.1.0.1", 0), at("10.1.0.2", 7174), 2000);
            assertThat(next(clientEvents, CmEventType.ADDR_RESOLVED).id()).isSameAs(client);
            client.resolveRoute(2000);
            next(clientEvents, CmEventType.ROUTE_RESOLVED);
            Context clientContext = client.context();
            assertThat(clientContext.device().name()).isEqualTo("cmapi-10.1.0.1");
            Cq clientCq = clientContext.createCq(16, null);
            Qp clientQp = client.createQp(null, rc(clientCq));
            assertThat(clientQp.query().state()).as("receives can be posted before connecting").isEqualTo(QpState.INIT);
            MemorySegment clientBuffer = arena.allocate(64);
            Mr clientMr = client.pd().regMr(clientBuffer, Access.LOCAL_WRITE);
            RecvWr recv = new RecvWr(1);
            recv.wrId = 1;
            recv.sgl.add(clientBuffer.address(), 64, clientMr.lkey());
            clientQp.postRecv(recv);
            client.connect(ConnectionParameters.defaults().withPrivateData(text("hello server")).withResources(3, 2));

            CmEvent request = next(serverEvents, CmEventType.CONNECT_REQUEST);
            CmId accepted = request.id();
            assertThat(request.listenId()).isSameAs(listener);
            assertThat(accepted).isNotSameAs(listener);
            assertThat(accepted.userContext()).isEqualTo("server");
            assertThat(new String(request.privateData(), 0, 12, StandardCharsets.US_ASCII)).isEqualTo("hello server");
            assertThat(request.privateData()).as("the REQ's 92 bytes less the IP CM header's 36").hasSize(56);
            assertThat(request.connection().qpNumber()).isEqualTo(clientQp.qpNum());
            assertThat(request.connection().responderResources()).as("the client's initiator depth, seen from here")
                    .isEqualTo(2);
            assertThat(request.connection().initiatorDepth()).isEqualTo(3);
            assertThat(accepted.remoteAddress()).isEqualTo(client.localAddress());
            assertThat(accepted.localAddress()).isEqualTo(at("10.1.0.2", 7174));

            Cq serverCq = accepted.context().createCq(16, null);
            Pd serverPd = accepted.context().allocPd();
            Qp serverQp = accepted.createQp(serverPd, rc(serverCq));
            accepted.accept(ConnectionParameters.defaults().withPrivateData(text("welcome")));

            CmEvent established = next(clientEvents, CmEventType.ESTABLISHED);
            assertThat(new String(established.privateData(), 0, 7, StandardCharsets.US_ASCII)).isEqualTo("welcome");
            assertThat(established.connection().qpNumber()).isEqualTo(serverQp.qpNum());
            assertThat(next(serverEvents, CmEventType.ESTABLISHED).id()).isSameAs(accepted);
            assertThat(clientQp.query().state()).isEqualTo(QpState.RTS);
            assertThat(serverQp.query().state()).isEqualTo(QpState.RTS);

            MemorySegment message = arena.allocate(64);
            message.setString(0, "over the CM's QPs");
            Mr serverMr = serverPd.regMr(message, Access.LOCAL_WRITE);
            SendWr send = new SendWr(1);
            send.wrId = 9;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(message.address(), 64, serverMr.lkey());
            serverQp.postSend(send);
            WorkCompletion[] wc = {new WorkCompletion()};
            assertThat(runUntil(() -> clientCq.poll(wc) == 1, SECOND)).isTrue();
            assertThat(wc[0].status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(clientBuffer.getString(0)).isEqualTo("over the CM's QPs");

            client.disconnect();
            next(clientEvents, CmEventType.DISCONNECTED);
            next(serverEvents, CmEventType.DISCONNECTED);
            accepted.disconnect(); // after the peer's DREQ: nothing more to do, and no error
            assertThat(clientQp.query().state()).isEqualTo(QpState.ERR);
            next(clientEvents, CmEventType.TIMEWAIT_EXIT);
            client.destroyQp();
            accepted.destroyQp();
        }
    }

    @Test
    void aConnectToAPortNobodyListensOnIsRejectedWithReason8AndAConsumersRejectWith28AndItsData() throws Exception {
        device("10.1.1.1");
        device("10.1.1.2");
        try (CmEventChannel events = cm.createEventChannel()) {
            CmId nobody = connectedClient(events, "10.1.1.1", "10.1.1.2", 7999);
            CmEvent refused = next(events, CmEventType.REJECTED);
            assertThat(refused.id()).isSameAs(nobody);
            assertThat(refused.status()).isEqualTo(8);
            assertThat(refused.toString()).isEqualTo("RDMA_CM_EVENT_REJECTED, error 8");

            CmId listener = events.createId(PortSpace.TCP, null);
            listener.bindAddr(at("10.1.1.2", 7000));
            listener.listen(1);
            CmId client = connectedClient(events, "10.1.1.1", "10.1.1.2", 7000);
            CmEvent request = next(events, CmEventType.CONNECT_REQUEST);
            request.id().reject(text("go away"));
            CmEvent rejected = next(events, CmEventType.REJECTED);
            assertThat(rejected.id()).isSameAs(client);
            assertThat(rejected.status()).isEqualTo(28);
            assertThat(new String(rejected.privateData(), 0, 7, StandardCharsets.US_ASCII)).isEqualTo("go away");
        }
    }

    private CmId connectedClient(CmEventChannel events, String from, String to, int port) throws Exception {
        CmId client = events.createId(PortSpace.TCP, null);
        client.resolveAddr(at(from, 0), at(to, port), 2000);
        next(events, CmEventType.ADDR_RESOLVED);
        client.resolveRoute(2000);
        next(events, CmEventType.ROUTE_RESOLVED);
        client.createQp(null, rc(client.context().createCq(8, null)));
        client.connect(ConnectionParameters.defaults());
        return client;
    }

    @Test
    void theUdpPortSpaceResolvesTheServicesUdQpBySidrAndADatagramReachesIt() throws Exception {
        device("10.1.2.1");
        device("10.1.2.2");
        try (CmEventChannel events = cm.createEventChannel()) {
            CmId listener = events.createId(PortSpace.UDP, null);
            listener.bindAddr(at("10.1.2.2", 7174));
            listener.listen(1);
            CmId client = events.createId(PortSpace.UDP, null);
            client.resolveAddr(at("10.1.2.1", 0), at("10.1.2.2", 7174), 2000);
            next(events, CmEventType.ADDR_RESOLVED);
            client.resolveRoute(2000);
            next(events, CmEventType.ROUTE_RESOLVED);
            Cq clientCq = client.context().createCq(8, null);
            Qp clientQp = client.createQp(null, new QpInitAttributes(QpType.UD, clientCq, clientCq, null,
                    new QpCapabilities(8, 8, 1, 1, 0), false));
            assertThat(clientQp.query().state()).as("a UD QP is ready at once").isEqualTo(QpState.RTS);
            client.connect(ConnectionParameters.defaults().withPrivateData(text("which QP?")));

            CmEvent request = next(events, CmEventType.CONNECT_REQUEST);
            assertThat(request.datagram()).isNotNull();
            assertThat(new String(request.privateData(), 0, 9, StandardCharsets.US_ASCII)).isEqualTo("which QP?");
            assertThat(request.privateData()).as("the SIDR_REQ's 216 bytes less the header's 36").hasSize(180);
            CmId served = request.id();
            Cq serverCq = served.context().createCq(8, null);
            Pd serverPd = served.context().allocPd();
            Qp serverQp = served.createQp(serverPd, new QpInitAttributes(QpType.UD, serverCq, serverCq, null,
                    new QpCapabilities(8, 8, 1, 1, 0), false));
            MemorySegment inbox = arena.allocate(40 + 64);
            Mr inboxMr = serverPd.regMr(inbox, Access.LOCAL_WRITE);
            RecvWr recv = new RecvWr(1);
            recv.wrId = 3;
            recv.sgl.add(inbox.address(), 40 + 64, inboxMr.lkey());
            serverQp.postRecv(recv);
            served.accept(ConnectionParameters.defaults());

            CmEvent resolved = next(events, CmEventType.ESTABLISHED);
            DatagramParameters where = resolved.datagram();
            assertThat(where.qpNumber()).isEqualTo(serverQp.qpNum());
            assertThat(where.qkey()).isEqualTo(DatagramParameters.UDP_QKEY);

            Pd clientPd = client.pd();
            Ah ah = clientPd.createAh(where.address());
            MemorySegment datagram = arena.allocate(64);
            datagram.setString(0, "a datagram");
            Mr datagramMr = clientPd.regMr(datagram, Access.LOCAL_WRITE);
            SendWr send = new SendWr(1);
            send.wrId = 4;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(datagram.address(), 64, datagramMr.lkey());
            send.ahHandle = ah.handle();
            send.remoteQpn = where.qpNumber();
            send.remoteQkey = where.qkey();
            clientQp.postSend(send);
            WorkCompletion[] wc = {new WorkCompletion()};
            assertThat(runUntil(() -> serverCq.poll(wc) == 1, SECOND)).isTrue();
            assertThat(wc[0].status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(inbox.getString(40)).isEqualTo("a datagram");
        }
    }

    @Test
    void portsConflictAsSocketsDoAndPort0TakesAnEphemeralOne() throws Exception {
        device("10.1.3.1");
        device("10.1.3.2");
        try (CmEventChannel events = cm.createEventChannel()) {
            CmId first = events.createId(PortSpace.TCP, null);
            first.bindAddr(at("10.1.3.1", 7471));
            CmId sameAddress = events.createId(PortSpace.TCP, null);
            assertThatThrownBy(() -> sameAddress.bindAddr(at("10.1.3.1", 7471)))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EADDRINUSE))
                    .hasMessageContaining("TCP port 7471 is taken on 10.1.3.1");
            CmId wildcard = events.createId(PortSpace.TCP, null);
            assertThatThrownBy(() -> wildcard.bindAddr(new InetSocketAddress(7471))).isInstanceOf(VerbsException.class);
            CmId otherAddress = events.createId(PortSpace.TCP, null);
            otherAddress.bindAddr(at("10.1.3.2", 7471));
            CmId otherSpace = events.createId(PortSpace.UDP, null);
            otherSpace.bindAddr(at("10.1.3.1", 7471));
            CmId ephemeral = events.createId(PortSpace.TCP, null);
            ephemeral.bindAddr(at("10.1.3.1", 0));
            assertThat(ephemeral.localAddress().getPort()).isBetween(32768, 60999);
            first.close();
            sameAddress.bindAddr(at("10.1.3.1", 7471));
            CmId nowhere = events.createId(PortSpace.TCP, null);
            assertThatThrownBy(() -> nowhere.bindAddr(at("10.9.9.9", 1)))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EADDRNOTAVAIL))
                    .hasMessageContaining("no jrxe device of this JVM has the address 10.9.9.9");
        }
    }

    @Test
    void stepsOutOfOrderAreRefusedWithTheStepThatIsMissing() throws Exception {
        device("10.1.4.1");
        try (CmEventChannel events = cm.createEventChannel()) {
            CmId id = events.createId(PortSpace.TCP, null);
            assertThatThrownBy(() -> id.createQp(null, null)).isInstanceOf(Exception.class);
            assertThatThrownBy(() -> id.connect(ConnectionParameters.defaults()))
                    .hasMessageContaining("resolve the address and the route first");
            assertThatThrownBy(() -> id.resolveRoute(100)).hasMessageContaining("resolve the address first");
            assertThatThrownBy(() -> id.accept(ConnectionParameters.defaults()))
                    .hasMessageContaining("accept answers a CONNECT_REQUEST");
            assertThatThrownBy(() -> id.disconnect()).hasMessageContaining("no connection to end");
            id.resolveAddr(null, at("10.1.4.9", 1), 100);
            next(events, CmEventType.ADDR_RESOLVED);
            id.resolveRoute(100);
            next(events, CmEventType.ROUTE_RESOLVED);
            assertThatThrownBy(() -> id.connect(ConnectionParameters.defaults()))
                    .hasMessageContaining("connect needs a QP");
            Cq cq = id.context().createCq(4, null);
            assertThatThrownBy(() -> id.createQp(null, new QpInitAttributes(QpType.UD, cq, cq, null,
                    new QpCapabilities(4, 4, 1, 1, 0), false))).hasMessageContaining("takes a RC QP, not UD");
            id.createQp(null, rc(cq));
            assertThatThrownBy(() -> id.connect(ConnectionParameters.defaults().withPrivateData(new byte[57])))
                    .hasMessageContaining("up to 56 bytes of private data, not 57");
            id.close();
            assertThatThrownBy(() -> id.listen(1)).hasMessageContaining("destroyed");
        }
    }
}
