package io.jrxe.tools.perftest;

import io.jrxe.tools.UserError;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.RdmaCm;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * perftest's create_rdma_cm_connection, for -R: the test's QPs connected by the connection manager instead of
 * ctx_connect. Between two syncs over the exchange, the server listens on the test's port again (its exchange's
 * listener is gone by then) and accepts -q requests, the client connects -q identifiers. The CM moves each QP to
 * RTS itself, with the PSNs and MTU it chose; the key messages then only carry the R_Key and address. The device
 * memory, CQs and PD are made on the first identifier's device context, as perftest's ctx_init does.
 */
final class CmTestQps implements AutoCloseable {
    /** How long the client waits for its DREQs to be answered. */
    private static final long DISCONNECT_WAIT_MILLIS = 3000;

    private final CmEventChannel channel;
    private final List<CmId> ids = new ArrayList<>();
    private final boolean client;
    /** The server's listening identifier, from {@link #open} to the last accept. */
    private CmId listening;

    private CmTestQps(CmEventChannel channel, boolean client) {
        this.channel = channel;
        this.client = client;
    }

    /**
     * The channel, and on the server already the listener on {@code address}: it listens before the sync that lets
     * the client connect, since perftest's client, refused, does not get over it (4.5 crashes as it tries again).
     */
    static CmTestQps open(PerftestSettings s, RdmaCm cm, InetSocketAddress address) {
        CmEventChannel channel;
        try {
            channel = cm.createEventChannel();
        } catch (VerbsException e) {
            throw new UserError("rdma_create_event_channel: " + e.getMessage(), e);
        }
        CmTestQps qps = new CmTestQps(channel, s.client);
        if (!s.client) {
            try {
                qps.listening = CmSteps.listen(channel, address, s.qps);
            } catch (RuntimeException e) {
                qps.close();
                throw e;
            }
        }
        return qps;
    }

    /** Connects (or accepts) the QPs of {@code res}, allocating its memory on the CM's device first. */
    void connect(PerftestSettings s, PerftestResources res, InetSocketAddress source, InetSocketAddress address) {
        if (s.client) {
            connectAll(s, res, source, address);
        } else {
            acceptAll(s, res);
        }
    }

    /** perftest's conn_param: the reads in flight for READ and atomics, retries 7. */
    private static ConnectionParameters parameters(PerftestSettings s) {
        int reads = s.verb.readLike() ? Math.min(255, s.outReads) : 0;
        return new ConnectionParameters(null, reads, reads, 0, 7, 7, false, 0);
    }

    private void connectAll(PerftestSettings s, PerftestResources res, InetSocketAddress source, InetSocketAddress server) {
        for (int i = 0; i < s.qps; i++) {
            CmId id = CmSteps.connect(channel, source, server, parameters(s), made -> {
                if (!res.allocated()) {
                    res.allocateMemory(made.context());
                }
                made.createQp(res.pd(), res.qpAttributes());
            }, s.timeoutMillis, "QP " + i);
            ids.add(id);
            res.addQp(i, id.qp());
        }
    }

    private void acceptAll(PerftestSettings s, PerftestResources res) {
        try {
            for (int i = 0; i < s.qps; i++) {
                CmEvent request = nextRequest(s.timeoutMillis, "waiting for the client's QP " + i);
                CmId id = request.id();
                ids.add(id);
                if (!res.allocated()) {
                    res.allocateMemory(id.context());
                }
                id.createQp(res.pd(), res.qpAttributes());
                res.addQp(i, id.qp());
                id.accept(parameters(s));
            }
        } catch (VerbsException e) {
            throw new UserError("rdma_cm, accepting the test's QPs: " + e.getMessage(), e);
        } finally {
            CmSteps.closeQuietly(listening);
            listening = null;
        }
    }

    /** The next connection request; the ESTABLISHED of those accepted before it may come first. */
    private CmEvent nextRequest(int timeoutMillis, String what) {
        while (true) {
            CmEvent e = CmSteps.next(channel, timeoutMillis, what);
            if (e.type() == CmEventType.CONNECT_REQUEST) {
                return e;
            }
            if (e.type() != CmEventType.ESTABLISHED) {
                throw new UserError("rdma_cm, " + what + ": " + e + " instead of RDMA_CM_EVENT_CONNECT_REQUEST");
            }
        }
    }

    /**
     * The client's end (rdma_cm_disconnect_nodes): a DREQ on each connection, and a bounded wait for their answers;
     * the server only goes, as perftest's does.
     */
    void disconnect() {
        if (!client) {
            return;
        }
        int waiting = 0;
        for (CmId id : ids) {
            try {
                id.disconnect();
                waiting++;
            } catch (VerbsException e) {
                // this one is gone already
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DISCONNECT_WAIT_MILLIS);
        while (waiting > 0 && System.nanoTime() - deadline < 0) {
            try {
                CmEvent e = channel.getEvent(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
                if (e != null && e.type() == CmEventType.DISCONNECTED) {
                    waiting--;
                }
            } catch (VerbsException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Destroys the identifiers and the channel; the QPs must be gone already ({@link PerftestResources#close}). */
    @Override
    public void close() {
        CmSteps.closeQuietly(listening);
        for (CmId id : ids) {
            try {
                id.close();
            } catch (VerbsException e) {
                // going away anyway
            }
        }
        try {
            channel.close();
        } catch (VerbsException e) {
            // going away anyway
        }
    }
}
