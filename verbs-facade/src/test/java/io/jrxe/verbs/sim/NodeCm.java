package io.jrxe.verbs.sim;

import io.jrxe.rnic.Nic;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.cm.AcceptParams;
import io.jrxe.rnic.cm.CmConnection;
import io.jrxe.rnic.cm.CmEventSink;
import io.jrxe.rnic.cm.ConnectParams;
import io.jrxe.rnic.cm.ConnectionManager;
import io.jrxe.wire.port.PeerAddress;

import java.util.List;

/**
 * A {@link CmFixture} node's connection manager, called as its NIC's owner: each call runs through the NIC's executor.
 * On the simulated network that is the test's thread anyway; on the shared-memory wire the device's standby thread
 * may be running the NIC meanwhile, and a call that touched its state (a MAD leaving through the GSI's one buffer)
 * beside it would race it.
 */
final class NodeCm {
    private final Nic nic;

    NodeCm(Nic nic) {
        this.nic = nic;
    }

    /** A call on the connection manager that returns nothing. */
    @FunctionalInterface
    private interface Action {
        void on(ConnectionManager cm) throws RnicException;
    }

    private void run(Action a) throws RnicException {
        nic.executor().call(() -> {
            a.on(nic.cm());
            return null;
        });
    }

    void listen(long serviceId, CmEventSink events) throws RnicException {
        run(cm -> cm.listen(serviceId, events));
    }

    CmConnection connect(ConnectParams p, CmEventSink events) throws RnicException {
        return nic.executor().call(() -> nic.cm().connect(p, events));
    }

    void accept(CmConnection c, AcceptParams p) throws RnicException {
        run(cm -> cm.accept(c, p));
    }

    void reject(CmConnection c, byte[] privateData) throws RnicException {
        run(cm -> cm.reject(c, privateData));
    }

    void acceptDatagrams(CmConnection c, int qpn, int qkey, byte[] privateData) throws RnicException {
        run(cm -> cm.acceptDatagrams(c, qpn, qkey, privateData));
    }

    void disconnect(CmConnection c, byte[] privateData) throws RnicException {
        run(cm -> cm.disconnect(c, privateData));
    }

    CmConnection resolveService(PeerAddress remote, long serviceId, byte[] privateData, int responseTimeout, int maxRetries,
                                CmEventSink events) throws RnicException {
        return nic.executor().call(() -> nic.cm().resolveService(remote, serviceId, privateData, responseTimeout,
                maxRetries, events));
    }

    int connectionCount() {
        return read(() -> nic.cm().connectionCount());
    }

    List<CmConnection> connections() {
        return read(() -> nic.cm().connections());
    }

    /** A look at the connection manager's state, which refuses nothing. */
    private <T> T read(NicExecutor.Command<T> read) {
        try {
            return nic.executor().call(read);
        } catch (RnicException e) {
            throw new IllegalStateException(e);
        }
    }
}
