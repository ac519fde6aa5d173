package io.jrxe.verbs.emulated;

import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.cm.AcceptParams;
import io.jrxe.rnic.cm.CmConnection;
import io.jrxe.rnic.cm.CmState;
import io.jrxe.rnic.cm.ConnectParams;
import io.jrxe.rnic.cm.ConnectionManager;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.DatagramParameters;
import io.jrxe.verbs.cm.PortSpace;
import io.jrxe.wire.port.PeerAddress;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A communication identifier on the jrxe NICs of this JVM. Address and route resolution are
 * local (a jrxe NIC reaches any IP address its socket can send to), so their events follow at once;
 * connect, accept, reject and disconnect are commands to the CM engine of the identifier's device,
 * run on its NIC thread, whose answers come back through the event channel.
 */
final class EmulatedCmId implements CmId {
    /** librdmacm's CM response timeout exponent (4.096 µs × 2^20, 4.3 s) and retries, for SIDR too. */
    private static final int CM_RESPONSE_TIMEOUT = 20;
    private static final int MAX_CM_RETRIES = 15;
    private static final byte[] NONE = new byte[0];

    private final EmulatedRdmaCm cm;
    private final EmulatedCmEventChannel channel;
    private final PortSpace space;
    private final Object userContext;
    /** A CONNECT_REQUEST's identifier, which answers with accept or reject. */
    private final boolean requested;
    private volatile EmulatedDevice device;
    private volatile InetSocketAddress local;
    private volatile InetSocketAddress remote;
    /** Whether {@link #local}'s port is this identifier's in the port table (a request's is its listener's). */
    private boolean holdsPort;
    private boolean routeResolved;
    private final List<EmulatedDevice> listeningOn = new ArrayList<>();
    private volatile Qp qp;
    private volatile Pd pd;
    private volatile CmConnection connection;
    private volatile boolean closed;

    EmulatedCmId(EmulatedRdmaCm cm, EmulatedCmEventChannel channel, PortSpace space, Object userContext) {
        this(cm, channel, space, userContext, false);
    }

    private EmulatedCmId(EmulatedRdmaCm cm, EmulatedCmEventChannel channel, PortSpace space, Object userContext,
                         boolean requested) {
        this.cm = cm;
        this.channel = channel;
        this.space = space;
        this.userContext = userContext;
        this.requested = requested;
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
        if (local != null) {
            throw new VerbsException(Errno.EINVAL, "the identifier is bound already, to " + describe(local));
        }
        InetAddress ip = ip(address, "bind");
        boolean wildcard = ip.isAnyLocalAddress();
        EmulatedDevice d = wildcard ? null : cm.deviceWith(ip);
        int port = cm.ports.bind(this, space, wildcard ? null : ip, address.getPort());
        holdsPort = true;
        device = d;
        local = new InetSocketAddress(ip, port);
    }

    @Override
    public void resolveAddr(InetSocketAddress source, InetSocketAddress destination, int timeoutMillis)
            throws VerbsException {
        open();
        InetAddress to = ip(destination, "resolve");
        positive(timeoutMillis);
        if (source != null && local == null) {
            bindAddr(source);
        }
        if (local == null) {
            EmulatedDevice d = cm.deviceToward(to);
            bindAddr(new InetSocketAddress(d.rnic().config().addresses().getFirst(), 0));
        } else if (device == null) {
            // Bound to the wildcard: the destination picks the device, and the address becomes its.
            EmulatedDevice d = cm.deviceToward(to);
            device = d;
            local = new InetSocketAddress(d.rnic().config().addresses().getFirst(), local.getPort());
        }
        remote = destination;
        channel.post(new CmEvent(CmEventType.ADDR_RESOLVED, this, null, 0, null, null));
    }

    @Override
    public void resolveRoute(int timeoutMillis) throws VerbsException {
        open();
        positive(timeoutMillis);
        if (remote == null) {
            throw new VerbsException(Errno.EINVAL, "resolve the address first (rdma_resolve_addr)");
        }
        routeResolved = true;
        channel.post(new CmEvent(CmEventType.ROUTE_RESOLVED, this, null, 0, null, null));
    }

    @Override
    public void listen(int backlog) throws VerbsException {
        open();
        if (requested || connection != null || !listeningOn.isEmpty()) {
            throw new VerbsException(Errno.EINVAL, "only an identifier that has not connected or listened can listen");
        }
        if (local == null) {
            bindAddr(new InetSocketAddress(0)); // as rdma_listen: the wildcard, a port of its choosing
        }
        List<EmulatedDevice> devices = device != null ? List.of(device) : cm.networkDevices();
        if (devices.isEmpty()) {
            throw new VerbsException(Errno.ENODEV, "no jrxe device of this JVM to listen on: make one with "
                    + "Verbs.emulated().createUdp");
        }
        long serviceId = space.serviceId(local.getPort());
        for (EmulatedDevice d : devices) {
            try {
                Commands.run(d.rnic(), () -> d.cm().listen(serviceId, channel.sinkFor(this, d)));
            } catch (VerbsException e) {
                stopListening();
                throw e;
            }
            listeningOn.add(d);
        }
    }

    @Override
    public void connect(ConnectionParameters p) throws VerbsException {
        open();
        if (!routeResolved) {
            throw new VerbsException(Errno.EINVAL, "resolve the address and the route first (rdma_resolve_addr, "
                    + "rdma_resolve_route)");
        }
        if (connection != null) {
            throw new VerbsException(Errno.EISCONN, "the identifier has connected already");
        }
        byte[] consumer = p.privateData();
        int room = IpCmPrivateData.consumerRoom(space);
        if (consumer.length > room) {
            throw new VerbsException(Errno.EINVAL, "a connect in the " + space + " port space carries up to " + room
                    + " bytes of private data, not " + consumer.length);
        }
        byte[] privateData = IpCmPrivateData.build(local, remote.getAddress(), consumer);
        PeerAddress peer = PeerAddress.of(remote.getAddress());
        long serviceId = space.serviceId(remote.getPort());
        EmulatedDevice d = device;
        if (space == PortSpace.UDP) {
            connection = Commands.call(d.rnic(), () -> d.cm().resolveService(peer, serviceId, privateData,
                    CM_RESPONSE_TIMEOUT, MAX_CM_RETRIES, channel.sinkFor(this, d)));
            return;
        }
        int qpn = qp != null ? qp.qpNum() : p.qpNumber();
        if (qpn == 0) {
            throw new VerbsException(Errno.EINVAL, "connect needs a QP: create one on the identifier (createQp) "
                    + "or name one in the parameters");
        }
        ConnectParams request = new ConnectParams(peer, serviceId, qpn).privateData(privateData)
                .responderResources(p.responderResources()).initiatorDepth(p.initiatorDepth())
                .retryCount(p.retryCount()).rnrRetryCount(p.rnrRetryCount()).pathMtu(d.rnic().port().activeMtu());
        connection = Commands.call(d.rnic(), () -> d.cm().connect(request, channel.sinkFor(this, d)));
    }

    @Override
    public void accept(ConnectionParameters p) throws VerbsException {
        CmConnection c = request("accept");
        EmulatedDevice d = device;
        if (space == PortSpace.UDP) {
            if (qp == null || qp.type() != QpType.UD) {
                throw new VerbsException(Errno.EINVAL, "accept in the UDP port space needs a UD QP on the identifier");
            }
            int qpn = qp.qpNum();
            Commands.run(d.rnic(), () -> d.cm().acceptDatagrams(c, qpn, DatagramParameters.UDP_QKEY, p.privateData()));
            return;
        }
        int qpn = qp != null ? qp.qpNum() : p.qpNumber();
        if (qpn == 0) {
            throw new VerbsException(Errno.EINVAL, "accept needs a QP: create one on the identifier (createQp) "
                    + "or name one in the parameters");
        }
        AcceptParams answer = new AcceptParams(qpn).privateData(p.privateData())
                .responderResources(p.responderResources()).initiatorDepth(p.initiatorDepth())
                .rnrRetryCount(p.rnrRetryCount());
        Commands.run(d.rnic(), () -> d.cm().accept(c, answer));
    }

    @Override
    public void reject(byte[] privateData) throws VerbsException {
        CmConnection c = request("reject");
        EmulatedDevice d = device;
        Commands.run(d.rnic(), () -> d.cm().reject(c, privateData == null ? NONE : privateData.clone()));
    }

    @Override
    public void disconnect() throws VerbsException {
        open();
        CmConnection c = connection;
        if (c == null || space == PortSpace.UDP) {
            throw new VerbsException(Errno.ENOTCONN, "the identifier has no connection to end");
        }
        EmulatedDevice d = device;
        Commands.run(d.rnic(), () -> end(d.cm(), c));
    }

    /**
     * On the NIC thread: a DREQ for a connection that is up; nothing when the peer has ended it already
     * (its DREQ was answered), as rdma_disconnect then succeeds too.
     */
    private static void end(ConnectionManager engine, CmConnection c) throws RnicException {
        switch (c.state()) {
            case ESTABLISHED, REP_SENT, MRA_REP_RCVD -> engine.disconnect(c, NONE);
            case DREQ_SENT, DREQ_RCVD, TIMEWAIT, CLOSED -> {
            }
            default -> throw RnicException.invalid(c + ": not connected yet");
        }
    }

    @Override
    public Qp createQp(Pd pd, QpInitAttributes attributes) throws VerbsException {
        open();
        EmulatedDevice d = device;
        if (d == null) {
            throw new VerbsException(Errno.EINVAL, "the identifier has no device yet: bind or resolve an address first");
        }
        if (qp != null) {
            throw new VerbsException(Errno.EINVAL, "the identifier has a QP already (0x"
                    + Integer.toHexString(qp.qpNum()) + ")");
        }
        QpType wanted = space == PortSpace.TCP ? QpType.RC : QpType.UD;
        if (attributes.type() != wanted) {
            throw new VerbsException(Errno.EINVAL, "an identifier in the " + space + " port space takes a " + wanted
                    + " QP, not " + attributes.type());
        }
        Pd in = pd != null ? pd : cm.defaultPd(d);
        if (Commands.own(in, EmulatedPd.class, "PD").device() != d) {
            throw new VerbsException(Errno.EINVAL, "the PD belongs to another device than the identifier's (" + d + ")");
        }
        Qp created = in.createQp(attributes);
        try {
            ready(created);
        } catch (VerbsException e) {
            created.close();
            throw e;
        }
        qp = created;
        this.pd = in;
        return created;
    }

    /**
     * As librdmacm leaves a new QP: RC in INIT with remote access, so that receives can be posted
     * before the connection; UD all the way to RTS with the UDP port space's Q_Key.
     */
    private void ready(Qp q) throws VerbsException {
        QpAttributes init = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1);
        if (space == PortSpace.TCP) {
            q.modify(init.accessFlags(Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
        } else {
            q.modify(init.qkey(DatagramParameters.UDP_QKEY));
            q.modify(new QpAttributes().state(QpState.RTR));
            q.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
        }
    }

    @Override
    public void destroyQp() throws VerbsException {
        Qp q = qp;
        if (q != null) {
            qp = null;
            pd = null;
            q.close();
        }
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
    public Context context() {
        EmulatedDevice d = device;
        return d == null ? null : cm.context(d);
    }

    @Override
    public int portNum() {
        return device == null ? 0 : 1;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    /**
     * rdma_destroy_id: stops listening, ends a connection that is up (DREQ) or a request not yet
     * answered (REJ), frees the port. The QP is the program's to destroy.
     */
    @Override
    public void close() throws VerbsException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stopListening();
            CmConnection c = connection;
            EmulatedDevice d = device;
            if (c != null && d != null) {
                Commands.run(d.rnic(), () -> abandon(d.cm(), c));
            }
        } finally {
            if (holdsPort) {
                cm.ports.release(this, space, local.getPort());
            }
            channel.forget(this);
        }
    }

    /** On the NIC thread: what destroying the identifier does to its communication. */
    private static void abandon(ConnectionManager engine, CmConnection c) throws RnicException {
        switch (c.state()) {
            case ESTABLISHED, REP_SENT, MRA_REP_RCVD -> engine.disconnect(c, NONE);
            case REQ_RCVD, MRA_REQ_SENT, SIDR_REQ_RCVD -> engine.reject(c, NONE);
            default -> {
            }
        }
    }

    // ---- the event channel's side, on a NIC thread ----

    /**
     * A CONNECT_REQUEST to this listener: a new identifier for it and the API's event on that identifier (the
     * consumer's private data, without the IP CM header, parsed once), or null when this listener is gone and
     * nobody will answer (the CM then refuses the request).
     */
    CmEvent requestArrived(io.jrxe.rnic.cm.CmEvent e, EmulatedDevice at) {
        if (closed) {
            return null;
        }
        EmulatedCmId id = new EmulatedCmId(cm, channel, space, userContext, true);
        IpCmPrivateData header = IpCmPrivateData.parse(e.privateData());
        id.device = at;
        id.connection = e.connection();
        id.local = new InetSocketAddress(header != null ? header.destination() : at.rnic().config().addresses().getFirst(),
                local.getPort());
        id.remote = header != null ? header.source() : new InetSocketAddress(e.connection().peer().address(), 0);
        id.routeResolved = true;
        byte[] consumer = header != null ? header.consumer() : e.privateData();
        if (space == PortSpace.UDP) {
            return new CmEvent(CmEventType.CONNECT_REQUEST, id, this, 0, null,
                    CmEventTranslation.datagram(consumer, id.remote.getAddress(), 0, 0));
        }
        return new CmEvent(CmEventType.CONNECT_REQUEST, id, this, 0, CmEventTranslation.request(e.request(), consumer), null);
    }

    /** Any other event of this identifier's communication, or null once the identifier is destroyed. */
    CmEvent translate(io.jrxe.rnic.cm.CmEvent e) {
        if (closed) {
            return null;
        }
        return CmEventTranslation.translate(e, this, space, remote == null ? e.connection().peer().address()
                : remote.getAddress());
    }

    // ---- checks ----

    private CmConnection request(String verb) throws VerbsException {
        open();
        CmConnection c = connection;
        if (!requested || c == null) {
            throw new VerbsException(Errno.EINVAL, verb + " answers a CONNECT_REQUEST: call it on the event's identifier");
        }
        return c;
    }

    private void stopListening() throws VerbsException {
        if (listeningOn.isEmpty()) {
            return;
        }
        long serviceId = space.serviceId(local.getPort());
        for (EmulatedDevice d : listeningOn) {
            Commands.run(d.rnic(), () -> d.cm().stopListening(serviceId));
        }
        listeningOn.clear();
    }

    private void open() throws VerbsException {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "the identifier is destroyed");
        }
    }

    private static InetAddress ip(InetSocketAddress address, String verb) throws VerbsException {
        if (address == null || address.isUnresolved()) {
            throw new VerbsException(Errno.EINVAL, verb + " needs an IP address" + (address == null ? "" : ", not the name "
                    + address.getHostString()));
        }
        return address.getAddress();
    }

    private static void positive(int timeoutMillis) throws VerbsException {
        if (timeoutMillis <= 0) {
            throw new VerbsException(Errno.EINVAL, "a timeout of " + timeoutMillis + " ms: it must be positive");
        }
    }

    private static String describe(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + " port " + a.getPort();
    }

    @Override
    public String toString() {
        return "CmId[" + space + (local == null ? "" : " " + describe(local))
                + (remote == null ? "" : " -> " + describe(remote)) + "]";
    }
}
