package io.jrxe.rnic;

import io.jrxe.rnic.cm.ConnectionManager;
import io.jrxe.rnic.pma.PerformanceAgent;
import io.jrxe.rnic.engine.DataPath;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.rnic.engine.TraceListener;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.queue.SharedReceiveQueue;
import io.jrxe.rnic.transport.NicTransport;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.time.NicTime;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One NIC (rxe's {@code rxe_dev}, Aeron's {@code MediaDriver}): the owner of the device and of every
 * QP's life. It is made from a {@link NicContext}, which supplies its parts: the transport, the
 * clock, congestion control, memory translation's page-fault hook and the counters registry. It
 * holds its {@link NicResources} (the tables), its {@link DataPath} (the engines) and its
 * {@link ConnectionManager}, each given only the parts it uses.
 *
 * <p>A QP's life goes through here and nowhere else: {@link #createQp} attaches the engines,
 * {@link #modifyQp} checks the transition and tells the engines, {@link #destroyQp} detaches them.
 * The verbs facade and the CM each call these. Each runs as a command on the NIC thread.
 */
public final class Nic implements AutoCloseable {
    private final DeviceConfig config;
    private final NicTransport transport;
    private final NicResources resources;
    private final CounterRegistry counters;
    private final DataPath dataPath;
    private final ConnectionManager cm;
    private final PerformanceAgent pma;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The transport's executor, which refuses every command once the NIC is closed. */
    private final NicExecutor executor;

    Nic(NicContext context) {
        this.config = context.config();
        this.transport = context.transport();
        this.counters = context.counters();
        NicExecutor commands = transport.executor();
        this.executor = new NicExecutor() {
            @Override
            public <T> T call(Command<T> command) throws RnicException {
                if (closed.get()) {
                    throw new RnicException(Errno.ENODEV, "device " + config.name() + " is closed");
                }
                return commands.call(command);
            }
        };
        this.resources = new NicResources(config, executor, context.pageFaults(), transport.nicRunsElsewhere(),
                context.clock());
        resources.counters().registerIn(counters);
        PacketPort port = transport.port();
        if (port == null) {
            this.dataPath = null;
            this.cm = null;
            this.pma = null;
            return;
        }
        NicTime clock = context.clock();
        try {
            // The engines are made on the NIC's thread: it owns them from their first field on.
            this.dataPath = executor.call(() -> new DataPath(resources, port, clock,
                    context.congestionControl().create(clock, counters), counters));
            this.cm = executor.call(() -> new ConnectionManager(this, dataPath.gsi(), clock));
            this.pma = executor.call(() -> new PerformanceAgent(dataPath.gsi(), resources.counters(), clock,
                    resources.nodeGuid(), counters));
        } catch (RnicException e) {
            transport.close();
            throw new IllegalStateException("the NIC thread of " + config.name() + " refused to build the engines: "
                    + e.getMessage(), e);
        }
    }

    public String name() {
        return config.name();
    }

    public DeviceConfig config() {
        return config;
    }

    /** The tables: PDs, MRs and windows, CQs, SRQs, QPs, AHs, and the attributes, port and async events. */
    public NicResources resources() {
        return resources;
    }

    /** Where control verbs run: on the NIC's thread, the caller waiting; refused with ENODEV once the NIC is closed. */
    public NicExecutor executor() {
        return executor;
    }

    public NicTransport transport() {
        return transport;
    }

    /** Every counter of the NIC, whichever part keeps it. */
    public CounterRegistry counters() {
        return counters;
    }

    /** The port, or null when the NIC has no network. */
    public PacketPort port() {
        return transport.port();
    }

    /** Whether the NIC has a network (engines, QP1 and the CM). */
    public boolean hasNetwork() {
        return dataPath != null;
    }

    /** The communication manager behind QP1, or null without a network. Its methods run on the NIC thread. */
    /** The port's Performance Management agent on QP1, or null when the NIC has no network. */
    public PerformanceAgent pma() {
        return pma;
    }

    public ConnectionManager cm() {
        return cm;
    }

    /** Installs the listener of the engines' trace events (null removes it); without a network, nothing. */
    public void trace(TraceListener listener) {
        if (dataPath != null) {
            dataPath.trace(listener);
        }
    }

    /** Creates a QP in RESET with its engines attached (ibv_create_qp). */
    public QpHandle createQp(ProtectionDomain pd, QpType type, CompletionQueue sendCq, CompletionQueue recvCq,
                             SharedReceiveQueue srq, QpCapabilities caps, boolean sqSigAll) throws RnicException {
        return executor().call(() -> {
            QueuePair qp = resources.createQp(pd, type, sendCq, recvCq, srq, caps, sqSigAll);
            return dataPath == null ? QpHandle.withoutEngines(qp) : dataPath.attach(qp);
        });
    }

    /**
     * Applies a modify-QP call (ibv_modify_qp), or refuses it whole; the engines learn of every
     * transition (RTR: the peer and the expected PSN; RTS: the send PSN; ERR: the flush; RESET: forget).
     */
    public void modifyQp(QpHandle handle, QpAttributes attributes) throws RnicException {
        executor().call(() -> {
            QueuePair qp = handle.qp();
            QpState from = qp.state();
            qp.modify(attributes, resources.attributes(), resources.port());
            if (dataPath != null) {
                dataPath.modified(qp, from);
            }
            return null;
        });
    }

    /** Destroys a QP (ibv_destroy_qp): it answers nothing more, and its number may be reused. */
    public void destroyQp(QpHandle handle) throws RnicException {
        executor().call(() -> {
            resources.destroyQp(handle.qp());
            if (dataPath != null) {
                dataPath.detach(handle.qp());
            }
            return null;
        });
    }

    /** The handle of the QP with this number (on the NIC thread), or null. */
    public QpHandle qp(int qpn) {
        return dataPath == null ? null : dataPath.handle(qpn);
    }

    /** Releases the transport (its port and whatever runs the NIC); not from the NIC thread. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            transport.close();
        }
    }

    @Override
    public String toString() {
        return config.name();
    }
}
