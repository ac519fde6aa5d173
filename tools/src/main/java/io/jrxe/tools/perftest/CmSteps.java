package io.jrxe.tools.perftest;

import io.jrxe.tools.UserError;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.PortSpace;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The connection-manager steps perftest's -R takes for its exchange QP and for the test's QPs alike: a server binds
 * the port and listens, a client resolves the address and the route (2 s each, as perftest) and connects. A client
 * that comes before the server listens is refused (REJECTED); it tries again every {@value #RETRY_PAUSE_MILLIS} ms
 * within its timeout, as perftest's rdma_cm_client_connection does ten times.
 */
final class CmSteps {
    static final int RESOLVE_MILLIS = 2000;
    static final long RETRY_PAUSE_MILLIS = 100;

    /** What a client makes on an identifier whose route is resolved, before it connects: the QP. */
    interface Setup {
        void on(CmId id) throws VerbsException;
    }

    private CmSteps() {
    }

    /** Waits for the next event, which must be {@code wanted}; anything else, or none in time, is a one-line error. */
    static CmEvent await(CmEventChannel channel, CmEventType wanted, long timeoutMillis, String what) {
        CmEvent e = next(channel, timeoutMillis, what);
        if (e.type() != wanted) {
            throw new UserError("rdma_cm, " + what + ": " + e + " instead of " + wanted.librdmacmName());
        }
        return e;
    }

    /** A wait with timeout 0 (for ever, as --accept-timeout 0) waits in steps of this. */
    private static final long FOREVER_STEP_MILLIS = 1000;

    /** The next event, within {@code timeoutMillis} (0: for ever). */
    static CmEvent next(CmEventChannel channel, long timeoutMillis, String what) {
        try {
            CmEvent e = channel.getEvent(timeoutMillis == 0 ? FOREVER_STEP_MILLIS : timeoutMillis, TimeUnit.MILLISECONDS);
            while (e == null && timeoutMillis == 0) {
                e = channel.getEvent(FOREVER_STEP_MILLIS, TimeUnit.MILLISECONDS);
            }
            if (e == null) {
                throw new UserError("rdma_cm, " + what + ": no event within " + timeoutMillis + " ms");
            }
            return e;
        } catch (VerbsException e) {
            throw new UserError("rdma_get_cm_event, " + what + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while waiting for the connection manager (" + what + ")");
        }
    }

    /** A listening identifier on {@code address} (perftest: the wildcard and -p). */
    static CmId listen(CmEventChannel channel, InetSocketAddress address, int backlog) {
        try {
            CmId id = channel.createId(PortSpace.TCP, null);
            try {
                id.bindAddr(address);
                id.listen(backlog);
                return id;
            } catch (VerbsException e) {
                id.close();
                throw e;
            }
        } catch (VerbsException e) {
            throw new UserError("rdma_cm: cannot listen on port " + address.getPort() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Connects a new identifier to {@code server}: resolves, lets {@code setup} make the QP, connects and waits for
     * ESTABLISHED; a refusal is tried again until {@code timeoutMillis} passed.
     */
    static CmId connect(CmEventChannel channel, InetSocketAddress source, InetSocketAddress server, ConnectionParameters p,
                        Setup setup, long timeoutMillis, String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        String last;
        while (true) {
            CmId id = null;
            try {
                id = channel.createId(PortSpace.TCP, null);
                id.resolveAddr(source, server, RESOLVE_MILLIS);
                await(channel, CmEventType.ADDR_RESOLVED, 2L * RESOLVE_MILLIS, what + ", resolving " + server);
                id.resolveRoute(RESOLVE_MILLIS);
                await(channel, CmEventType.ROUTE_RESOLVED, 2L * RESOLVE_MILLIS, what + ", resolving the route");
                setup.on(id);
                id.connect(p);
                CmEvent e = next(channel, timeoutMillis, what + ", connecting");
                if (e.type() == CmEventType.ESTABLISHED) {
                    return id;
                }
                if (e.type() != CmEventType.REJECTED && e.type() != CmEventType.UNREACHABLE) {
                    throw new UserError("rdma_cm, " + what + ": " + e + " instead of RDMA_CM_EVENT_ESTABLISHED");
                }
                last = e.toString();
            } catch (VerbsException e) {
                closeQuietly(id);
                throw new UserError("rdma_cm, " + what + ": " + e.getMessage(), e);
            } catch (UserError e) {
                closeQuietly(id);
                throw e;
            }
            closeQuietly(id);
            if (System.nanoTime() - deadline >= 0) {
                throw new UserError("rdma_cm, " + what + ": " + server + " refused within " + timeoutMillis + " ms (" + last
                        + "): is the server running with -R?");
            }
            pause();
        }
    }

    static void closeQuietly(CmId id) {
        if (id == null) {
            return;
        }
        try {
            if (id.qp() != null) {
                id.destroyQp();
            }
            id.close();
        } catch (VerbsException e) {
            // going away anyway
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while connecting through the connection manager");
        }
    }
}
