package io.jrxe.rnic.cm;

import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.rnic.Nic;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.engine.GsiQp;
import io.jrxe.rnic.engine.MadAgent;
import io.jrxe.rnic.engine.MadDropReason;
import io.jrxe.rnic.engine.MadInbox;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.cm.RejectReason;
import io.jrxe.wire.cm.SidrStatus;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.psn.Psn;
import io.jrxe.wire.time.NicTime;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The communication manager of one device (IBTA vol. 1, chapter 12): the agent of the CM class
 * behind the port's GSI QP, and the API a librdmacm-shaped layer sits on: {@link #listen},
 * {@link #connect}, {@link #accept}, {@link #reject}, {@link #disconnect}, and SIDR's
 * {@link #resolveService} and {@link #acceptDatagrams}. Events go to the {@link CmEventSink} each
 * call names (a {@link CmEventQueue} the application polls, or a layer above).
 *
 * <p>It is an engine like the data path's: it runs on the NIC thread (every method here must be
 * called there), receives MADs by hand-off from {@link GsiQp} (its {@link MadInbox}, drained in the
 * CM's own task), sends them through it, keeps its timers through {@link NicTime} (virtual time on
 * the simulated network), and moves QPs with the NIC's modify-QP, never calling the data path's
 * engines. The message handlers are in
 * {@link CmReceiver}; the states are {@link CmState}; docs/cm.md draws the machine.
 */
public final class ConnectionManager implements MadAgent {
    /** How long the passive side asks for in its MRA: 4.096 µs × 2^23, 34 s (as Linux's CM). */
    static final int MRA_SERVICE_TIMEOUT = 23;
    /** MADs QP1 may leave before the CM's task drains them: a burst of connection requests and their retries. */
    private static final int INBOX_MADS = 256;

    final NicResources rnic;
    final GsiQp gsi;
    final NicTime time;
    final QpConnector qps;
    final CmMessages messages;
    private final CmReceiver receiver;
    /** Where QP1 leaves the CM's MADs; drained in the CM's own task. */
    private final MadInbox inbox;
    private final SplittableRandom random;
    final Map<Integer, CmConnection> connections = new HashMap<>();
    final Map<RemoteKey, CmConnection> passive = new HashMap<>();
    final Map<Long, CmEventSink> listeners = new HashMap<>();
    final byte[] scratch = new byte[MadHeaderFlyweight.MAD_LENGTH];
    private long nextTransaction;

    public ConnectionManager(Nic nic, GsiQp gsi, NicTime time) {
        this.rnic = nic.resources();
        this.gsi = gsi;
        this.time = time;
        this.qps = new QpConnector(nic);
        this.messages = new CmMessages(rnic.nodeGuid(), PeerAddress.of(rnic.config().addresses().getFirst()));
        // Seeded by the node, so that a simulated run replays exactly (IDs, PSNs and all).
        this.random = new SplittableRandom(rnic.nodeGuid());
        this.nextTransaction = random.nextLong() & 0xFFFF_FFFFL;
        this.receiver = new CmReceiver(this);
        this.inbox = new MadInbox(INBOX_MADS, time, (mad, from, pkey, sourceQp) -> receiver.mad(mad, from));
        gsi.register(MadHeaderFlyweight.MGMT_CLASS_CM, this);
    }

    @Override
    public int classVersion() {
        return MadHeaderFlyweight.CM_CLASS_VERSION;
    }

    @Override
    public MadInbox inbox() {
        return inbox;
    }

    // ---- the API ----

    /**
     * Connection requests for this service ID go to {@code events} as CONNECT_REQUEST: a REQ's for
     * {@link #accept} or {@link #reject}, a SIDR_REQ's (no request fields) for {@link #acceptDatagrams}
     * or {@link #reject}.
     */
    public void listen(long serviceId, CmEventSink events) throws RnicException {
        if (listeners.containsKey(serviceId)) {
            throw RnicException.busy(String.format("service ID 0x%016x has a listener already", serviceId));
        }
        listeners.put(serviceId, events);
    }

    public void stopListening(long serviceId) {
        listeners.remove(serviceId);
    }

    /**
     * Sends a REQ for the params' QP (which goes to INIT now if it is in RESET) and returns the
     * communication; ESTABLISHED, REJECTED or UNREACHABLE follows on {@code events}.
     */
    public CmConnection connect(ConnectParams p, CmEventSink events) throws RnicException {
        checkPrivateData(p.privateData, 92, "REQ");
        QpHandle qp = qps.usable(p.qpn);
        if (p.pathMtu.bytes() > rnic.port().activeMtu().bytes()) {
            throw RnicException.invalid("path MTU " + p.pathMtu.bytes() + " exceeds the port's active MTU "
                    + rnic.port().activeMtu().bytes());
        }
        qps.init(qp);
        CmConnection c = newConnection(true, p.remote, events);
        c.transactionId = nextTransactionId();
        c.serviceId = p.serviceId;
        c.qpn = p.qpn;
        c.localStartingPsn = random.nextInt(Psn.MODULUS);
        c.pathMtu = p.pathMtu.verbsValue();
        c.flowLabel = p.flowLabel != 0 ? p.flowLabel : flowLabelOf(c.localCommId);
        c.localAckTimeout = p.localAckTimeout;
        c.retryCount = p.retryCount;
        c.rnrRetryCount = p.rnrRetryCount;
        c.responderResources = p.responderResources;
        c.initiatorDepth = p.initiatorDepth;
        c.packetLifeTime = p.packetLifeTime;
        c.peerResponseTimeout = p.cmResponseTimeout;
        c.maxCmRetries = p.maxCmRetries;
        messages.req(c, 0, p.privateData);
        enter(c, CmState.REQ_SENT);
        send(c);
        armResponseTimer(c);
        return c;
    }

    /**
     * The passive side takes the request: its QP goes to RTR and RTS with what the REQ carried,
     * and the REP goes out; ESTABLISHED follows with the RTU, or CONNECT_ERROR.
     */
    public void accept(CmConnection c, AcceptParams p) throws RnicException {
        checkPrivateData(p.privateData, 196, "REP");
        if (c.active || !c.state.awaitsConsumer()) {
            throw RnicException.invalid(c + ": accept answers a connection request that waits for it");
        }
        QpHandle qp = qps.usable(p.qpn);
        c.qpn = p.qpn;
        c.localStartingPsn = random.nextInt(Psn.MODULUS);
        c.responderResources = p.responderResources;
        c.initiatorDepth = Math.min(p.initiatorDepth, c.request.responderResources());
        try {
            qps.connect(qp, c);
        } catch (RnicException e) {
            qps.error(c);
            c.qpn = 0;
            throw e;
        }
        messages.rep(c, p.rnrRetryCount, p.privateData);
        enter(c, CmState.REP_SENT);
        send(c);
        armResponseTimer(c);
    }

    /**
     * The passive side refuses the request: a REJ with reason 28 (consumer reject) and the private
     * data, or for a SIDR request a SIDR_REP with the status REJECTED.
     */
    public void reject(CmConnection c, byte[] privateData) throws RnicException {
        if (c.state == CmState.SIDR_REQ_RCVD) {
            answerDatagramRequest(c, SidrStatus.REJECTED, 0, 0, privateData);
            return;
        }
        checkPrivateData(privateData, 148, "REJ");
        if (c.active || !c.state.awaitsConsumer()) {
            throw RnicException.invalid(c + ": reject answers a connection request that waits for it");
        }
        messages.rej(c.lastSent, c.transactionId, c.localCommId, c.remoteCommId, CmMessages.MESSAGE_REQ,
                RejectReason.CONSUMER_REJECT.code(), privateData);
        c.hasLastSent = true;
        send(c);
        enterTimewait(c);
    }

    /**
     * SIDR, passive side: answers a SIDR request that waits for its consumer with the UD QP that
     * serves it and its Q_Key (a SIDR_REP with the status VALID). The answer is kept for a while,
     * so that the same request again (the reply was lost) gets it again.
     */
    public void acceptDatagrams(CmConnection c, int qpn, int qkey, byte[] privateData) throws RnicException {
        if (c.state != CmState.SIDR_REQ_RCVD) {
            throw RnicException.invalid(c + ": acceptDatagrams answers a SIDR request that waits for it");
        }
        answerDatagramRequest(c, SidrStatus.VALID, qpn, qkey, privateData);
    }

    private void answerDatagramRequest(CmConnection c, SidrStatus status, int qpn, int qkey, byte[] privateData)
            throws RnicException {
        checkPrivateData(privateData, 136, "SIDR_REP");
        c.qpn = qpn;
        messages.sidrRep(c.lastSent, c.transactionId, c.remoteCommId, status.code(), qpn, c.serviceId, qkey, privateData);
        c.hasLastSent = true;
        send(c);
        enterTimewait(c);
    }

    /** Ends an established connection: its QP goes to ERR and a DREQ goes out; DISCONNECTED follows. */
    public void disconnect(CmConnection c, byte[] privateData) throws RnicException {
        checkPrivateData(privateData, 220, "DREQ");
        if (c.state != CmState.ESTABLISHED && !c.state.awaitsRtu()) {
            throw RnicException.invalid(c + ": only an established connection can be disconnected");
        }
        qps.error(c);
        if (!c.active) {
            c.transactionId = nextTransactionId(); // the DREQ's sender picks its transaction ID
        }
        messages.dreq(c, privateData);
        enter(c, CmState.DREQ_SENT);
        send(c);
        armResponseTimer(c);
    }

    /** SIDR: asks the node at {@code remote} which UD QP serves the service; ESTABLISHED (QPN, Q_Key) or UNREACHABLE follows. */
    public CmConnection resolveService(PeerAddress remote, long serviceId, byte[] privateData, int responseTimeout,
                                       int maxRetries, CmEventSink events) throws RnicException {
        checkPrivateData(privateData, 216, "SIDR_REQ");
        CmConnection c = newConnection(true, remote, events);
        c.transactionId = nextTransactionId();
        c.serviceId = serviceId;
        c.peerResponseTimeout = ConnectParams.check(responseTimeout, 0, 31, "response timeout");
        c.maxCmRetries = ConnectParams.check(maxRetries, 0, 15, "max retries");
        c.packetLifeTime = 13;
        messages.sidrReq(c, privateData);
        enter(c, CmState.SIDR_REQ_SENT);
        send(c);
        armResponseTimer(c);
        return c;
    }

    /** Communications the CM still keeps (in any state but CLOSED). */
    public int connectionCount() {
        return connections.size();
    }

    /** A copy of the communications the CM keeps, for tests and tools. */
    public List<CmConnection> connections() {
        return new ArrayList<>(connections.values());
    }

    public GsiQp gsi() {
        return gsi;
    }

    // ---- shared by the API and the receiver ----

    CmConnection newConnection(boolean active, PeerAddress peer, CmEventSink events) {
        int id;
        do {
            id = random.nextInt();
        } while (id == 0 || connections.containsKey(id));
        CmConnection c = new CmConnection(id, active, peer, events);
        connections.put(id, c);
        return c;
    }

    long nextTransactionId() {
        return nextTransaction++;
    }

    /** A 20-bit nonzero flow label from the communication ID, so that connections spread over UDP ports. */
    static int flowLabelOf(int commId) {
        int h = (commId * 0x61C88647) >>> 12;
        return h != 0 ? h : 1;
    }

    void enter(CmConnection c, CmState s) {
        c.state = s;
        c.retries = 0;
        c.timerGeneration++;
    }

    void send(CmConnection c) {
        gsi.send(ByteBuffer.wrap(c.lastSent), c.peer);
    }

    void sendScratch(PeerAddress to) {
        gsi.send(ByteBuffer.wrap(scratch), to);
    }

    /** Hands an event to the connection's sink; false when the sink did not take it. */
    boolean post(CmConnection c, CmEvent e) {
        return c.events.post(e);
    }

    void dropped(MadDropReason reason) {
        gsi.dropped(reason);
    }

    void armResponseTimer(CmConnection c) {
        arm(c, CmTimers.responseWait(c.peerResponseTimeout, c.packetLifeTime));
    }

    void arm(CmConnection c, long nanos) {
        int generation = ++c.timerGeneration;
        time.schedule(nanos, () -> timerFired(c, generation));
    }

    /** Time-wait: the QP is in ERR and late messages are still answered, then the ID is freed. */
    void enterTimewait(CmConnection c) {
        enter(c, CmState.TIMEWAIT);
        arm(c, CmTimers.timewait(c.packetLifeTime, c.localAckTimeout));
    }

    void close(CmConnection c) {
        enter(c, CmState.CLOSED);
        connections.remove(c.localCommId);
        if (!c.active) {
            passive.remove(RemoteKey.of(c.peer, c.remoteCommId));
        }
    }

    /** A lost answer: send again while retries remain, else give up as the state says. */
    private void timerFired(CmConnection c, int generation) {
        if (generation != c.timerGeneration || c.state == CmState.CLOSED) {
            return; // a stale timer: the state moved on since it was armed
        }
        switch (c.state) {
            case REQ_SENT, REP_SENT, DREQ_SENT, SIDR_REQ_SENT -> {
                if (c.retries < c.maxCmRetries) {
                    c.retries++;
                    send(c);
                    armResponseTimer(c);
                } else {
                    gaveUp(c);
                }
            }
            case MRA_REQ_RCVD, MRA_REP_RCVD -> gaveUp(c);
            case REQ_RCVD -> {
                // The consumer has not answered within half the active side's wait: ask for more time.
                messages.mra(c, CmMessages.MESSAGE_REQ, MRA_SERVICE_TIMEOUT);
                enter(c, CmState.MRA_REQ_SENT);
                send(c);
            }
            case TIMEWAIT -> {
                close(c);
                if (c.wasEstablished) {
                    post(c, CmEvent.of(CmEventType.TIMEWAIT_EXIT, c, 0, new byte[0]));
                }
            }
            default -> {
            }
        }
    }

    private void gaveUp(CmConnection c) {
        switch (c.state) {
            case REQ_SENT, MRA_REQ_RCVD, REP_SENT, MRA_REP_RCVD -> {
                boolean activeSide = c.active;
                messages.rej(c.lastSent, c.transactionId, c.localCommId, c.remoteCommId,
                        activeSide ? CmMessages.MESSAGE_REQ : CmMessages.MESSAGE_REP, RejectReason.TIMEOUT.code(), new byte[0]);
                send(c);
                qps.error(c);
                enterTimewait(c);
                post(c, CmEvent.of(activeSide ? CmEventType.UNREACHABLE : CmEventType.CONNECT_ERROR, c,
                        CmEvent.ETIMEDOUT, new byte[0]));
            }
            case DREQ_SENT -> {
                enterTimewait(c);
                post(c, CmEvent.of(CmEventType.DISCONNECTED, c, CmEvent.ETIMEDOUT, new byte[0]));
            }
            case SIDR_REQ_SENT -> {
                close(c);
                post(c, CmEvent.of(CmEventType.UNREACHABLE, c, CmEvent.ETIMEDOUT, new byte[0]));
            }
            default -> {
            }
        }
    }

    private static void checkPrivateData(byte[] data, int max, String message) throws RnicException {
        if (data.length > max) {
            throw RnicException.invalid("a " + message + " carries up to " + max + " bytes of private data, not " + data.length);
        }
    }
}
