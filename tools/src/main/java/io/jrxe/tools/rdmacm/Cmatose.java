package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.PortSpace;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * ucmatose's test (cmatose.c): -c RC connections through the connection manager. The server accepts them all,
 * SENDs -C messages on each, waits for its sends to complete and for the client's -C answers, then disconnects
 * every connection. The client connects them all (retry 5, RNR retry 0), waits for the server's messages,
 * answers with as many, and waits for the server's disconnects. Every line goes to stdout, as the program's
 * printf; the result is its "return status".
 */
final class Cmatose {
    private static final int ENOMEM = 12;

    private final CmTestOptions o;
    private final PrintWriter out;
    private final PrintWriter err;
    private final CmEventChannel channel;
    private final CmatoseNode[] nodes;
    private final Map<CmId, CmatoseNode> byId = new IdentityHashMap<>();
    private final CqDrain drain = new CqDrain();
    private final int count;
    private int connIndex;
    private int connectsLeft;
    private int disconnectsLeft;

    Cmatose(CmTestOptions o, CmEventChannel channel, PrintWriter out, PrintWriter err) {
        this.o = o;
        this.out = out;
        this.err = err;
        this.channel = channel;
        this.count = o.messageSize == 0 ? 0 : o.messageCount; // create_message: no size, no messages
        this.nodes = new CmatoseNode[o.connections];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = new CmatoseNode(i);
        }
        this.connectsLeft = o.connections;
    }

    /** main after the options: the client or the server, "test complete", the teardown; returns the status. */
    int run(int port) throws InterruptedException, VerbsException {
        int ret;
        try {
            ret = o.isClient() ? runClient(port) : runServer(port);
            say("test complete");
        } finally {
            for (CmatoseNode n : nodes) {
                n.close();
            }
        }
        say("return status %d", ret);
        return ret;
    }

    private int runServer(int port) throws InterruptedException, VerbsException {
        CmId listener = channel.createId(PortSpace.TCP, this);
        try {
            try {
                listener.bindAddr(new InetSocketAddress(o.serverBind(), port));
            } catch (VerbsException e) {
                say("cmatose: starting server");
                return perror("cmatose: bind address failed", e);
            }
            try {
                listener.listen(0);
            } catch (VerbsException e) {
                say("cmatose: starting server");
                return perror("cmatose: failure trying to listen", e);
            }
            say("cmatose: starting server"); // once it listens: a script may start the client on this line
            int ret = connectEvents();
            if (ret != 0) {
                return ret;
            }
            if (count > 0) {
                say("initiating data transfers");
                for (CmatoseNode n : nodes) {
                    n.postSends(count, o.messageSize);
                }
                say("completing sends");
                if ((ret = pollCqs(true)) != 0) {
                    return ret;
                }
                say("receiving data transfers");
                if ((ret = pollCqs(false)) != 0) {
                    return ret;
                }
                say("data transfers complete");
            }
            say("cmatose: disconnecting");
            for (CmatoseNode n : nodes) {
                if (n.connected) {
                    n.connected = false;
                    disconnect(n.id);
                }
            }
            ret = disconnectEvents();
            say("disconnected");
            return ret;
        } finally {
            CmatoseNode.quietly(listener);
        }
    }

    private int runClient(int port) throws InterruptedException, VerbsException {
        say("cmatose: starting client");
        InetSocketAddress server = new InetSocketAddress(o.serverAddress(), port);
        InetSocketAddress source = o.bindAddress() == null ? null : new InetSocketAddress(o.bindAddress(), 0);
        say("cmatose: connecting");
        for (CmatoseNode n : nodes) {
            n.id = channel.createId(PortSpace.TCP, n);
            byId.put(n.id, n);
            try {
                n.id.resolveAddr(source, server, 2000);
            } catch (VerbsException e) {
                connectsLeft--;
                return perror("cmatose: failure getting addr", e);
            }
        }
        int ret = connectEvents();
        if (ret == 0 && count > 0) {
            say("receiving data transfers");
            ret = pollCqs(false);
            if (ret == 0) {
                say("sending replies");
                for (CmatoseNode n : nodes) {
                    n.postSends(count, o.messageSize);
                }
                say("data transfers complete");
            }
        }
        int ret2 = disconnectEvents();
        return ret2 != 0 ? ret2 : ret;
    }

    private int connectEvents() throws InterruptedException, VerbsException {
        int ret = 0;
        while (connectsLeft > 0 && ret == 0) {
            ret = handle(nextEvent());
        }
        return ret;
    }

    private int disconnectEvents() throws InterruptedException, VerbsException {
        int ret = 0;
        while (disconnectsLeft > 0 && ret == 0) {
            ret = handle(nextEvent());
        }
        return ret;
    }

    /** rdma_get_cm_event: waits as long as it takes (the CM's own timeouts end a connection that cannot be made). */
    private CmEvent nextEvent() throws InterruptedException, VerbsException {
        while (true) {
            CmEvent e = channel.getEvent(1, TimeUnit.SECONDS);
            if (e != null) {
                return e;
            }
        }
    }

    /** cma_handler. */
    private int handle(CmEvent e) {
        CmatoseNode node = byId.get(e.id());
        return switch (e.type()) {
            case ADDR_RESOLVED -> {
                setOptions();
                try {
                    e.id().resolveRoute(2000);
                    yield 0;
                } catch (VerbsException x) {
                    connectsLeft--;
                    yield perror("cmatose: resolve route failed", x);
                }
            }
            case ROUTE_RESOLVED -> connectNode(node);
            case CONNECT_REQUEST -> acceptRequest(e);
            case ESTABLISHED -> {
                node.connected = true;
                connectsLeft--;
                disconnectsLeft++;
                yield 0;
            }
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                say("cmatose: event: %s, error: %d", e.type().librdmacmName(), e.status());
                connectsLeft--;
                yield e.status();
            }
            case DISCONNECTED -> {
                disconnect(e.id());
                disconnectsLeft--;
                yield 0;
            }
            default -> 0;
        };
    }

    /** route_handler: the node's resources, its receives, then the REQ. */
    private int connectNode(CmatoseNode n) {
        try {
            n.init(count, o.messageSize);
            n.postRecvs(count, o.messageSize);
        } catch (VerbsException e) {
            connectsLeft--;
            return perror("cmatose: unable to create QP", e);
        }
        try {
            n.id.connect(new ConnectionParameters(new byte[0], 1, 1, 0, 5, 0, false, 0));
            return 0;
        } catch (VerbsException e) {
            connectsLeft--;
            return perror("cmatose: failure connecting", e);
        }
    }

    /** connect_handler: the next node takes the request, or it is refused when every node has one. */
    private int acceptRequest(CmEvent e) {
        CmId id = e.id();
        if (connIndex == nodes.length) {
            say("cmatose: failing connection request");
            reject(id);
            return -ENOMEM;
        }
        CmatoseNode n = nodes[connIndex++];
        n.id = id;
        byId.put(id, n);
        try {
            n.init(count, o.messageSize);
            setAckTimeout();
            n.postRecvs(count, o.messageSize);
            id.accept(LibrdmacmAccept.of(e.connection(), id));
            return 0;
        } catch (VerbsException x) {
            err.println("cmatose: failure accepting: " + x.getMessage());
            err.flush();
            n.id = null;
            connectsLeft--;
            say("cmatose: failing connection request");
            reject(id);
            CmatoseNode.quietly(id);
            return -x.errno().value();
        }
    }

    /** -t (and -a): rdma_set_option, which jrxe's connection manager does not have; the program says so and goes on. */
    private void setOptions() {
        if (o.typeOfService != null) {
            perror("cmatose: set TOS option failed", null);
        }
        setAckTimeout();
    }

    private void setAckTimeout() {
        if (ackTimeout != null) {
            perror("cmatose: set ack timeout option failed", null);
        }
    }

    /** -a, which only ucmatose has: the command sets it. */
    String ackTimeout;

    /** poll_cqs: -C completions on each connected node's send (or receive) CQ. */
    private int pollCqs(boolean send) {
        for (CmatoseNode n : nodes) {
            if (!n.connected) {
                continue;
            }
            int got = drain.take(send ? n.sendCq : n.recvCq, count, o.timeoutNanos(), wc -> { });
            if (got < count) {
                say("cmatose: failed polling CQ: %d (%d of %d completions in %d s)", -110, got, count, o.timeoutSeconds);
                return -110;
            }
        }
        return 0;
    }

    private void disconnect(CmId id) {
        try {
            id.disconnect();
        } catch (VerbsException e) {
            // rdma_disconnect's result is not looked at: the peer may have ended the connection already
        }
    }

    private void reject(CmId id) {
        try {
            id.reject(null);
        } catch (VerbsException e) {
            // the request is gone already
        }
    }

    /** perror's line on stderr; returns -1, as the librdmacm calls do on failure. */
    private int perror(String what, VerbsException e) {
        err.println(what + ": " + (e == null ? "Function not implemented (jrxe's connection manager has no rdma_set_option)"
                : e.getMessage()));
        err.flush();
        return -1;
    }

    private void say(String format, Object... args) {
        out.printf(format + "%n", args);
        out.flush();
    }
}
