package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.PortSpace;

import java.io.PrintWriter;
import java.net.InetSocketAddress;

/**
 * ucmatose's test (cmatose.c): -c RC connections through the connection manager. The server accepts them all,
 * SENDs -C messages on each, waits for its sends to complete and for the client's -C answers, then disconnects
 * every connection. The client connects them all (retry 5, RNR retry 0), waits for the server's messages,
 * answers with as many, and waits for the server's disconnects. Every line goes to stdout, as the program's
 * printf; the result is its "return status".
 */
final class Cmatose extends CmTestRun<CmatoseNode> {
    private final int port;
    /** -a, which asks rdma_set_option for the QPs' ACK timeout. */
    private final String ackTimeout;
    private int disconnectsLeft;

    Cmatose(CmTestOptions o, int port, String ackTimeout, CmEventChannel channel, PrintWriter out, PrintWriter err) {
        super("cmatose", o, channel, out, err, nodes(o.connections));
        this.port = port;
        this.ackTimeout = ackTimeout;
    }

    private static CmatoseNode[] nodes(int n) {
        CmatoseNode[] nodes = new CmatoseNode[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = new CmatoseNode(i);
        }
        return nodes;
    }

    @Override
    int runServer() throws InterruptedException, VerbsException {
        CmId listener = channel.createId(PortSpace.TCP, this);
        try {
            try {
                listener.bindAddr(new InetSocketAddress(o.serverBind(), port));
                listener.listen(0);
            } catch (VerbsException e) {
                say("cmatose: starting server");
                return perror("cmatose: bind address failed", e);
            }
            say("cmatose: starting server"); // once it listens: a script may start the client on this line
            int ret = events(() -> connectsLeft > 0);
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
            ret = events(() -> disconnectsLeft > 0);
            say("disconnected");
            return ret;
        } finally {
            Quietly.close(listener);
        }
    }

    @Override
    int runClient() throws InterruptedException, VerbsException {
        say("cmatose: starting client");
        if (resolveAll(PortSpace.TCP, port) != 0) {
            return -1;
        }
        int ret = events(() -> connectsLeft > 0);
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
        int ret2 = events(() -> disconnectsLeft > 0);
        return ret2 != 0 ? ret2 : ret;
    }

    @Override
    int handle(CmEvent e) {
        CmatoseNode node = byId.get(e.id());
        return switch (e.type()) {
            case ADDR_RESOLVED -> {
                setTos();
                setAckTimeout();
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

    /** connect_handler: the next node takes the request and accepts it as rdma_accept(id, NULL). */
    private int acceptRequest(CmEvent e) {
        CmatoseNode n = nextNode(e.id());
        if (n == null) {
            return -ENOMEM;
        }
        try {
            n.init(count, o.messageSize);
            setAckTimeout();
            n.postRecvs(count, o.messageSize);
            n.id.accept(LibrdmacmAccept.of(e.connection(), n.id));
            return 0;
        } catch (VerbsException x) {
            perror("cmatose: failure accepting", x);
            fail(n, e.id());
            return -x.errno().value();
        }
    }

    private void setAckTimeout() {
        if (ackTimeout != null) {
            perror("cmatose: set ack timeout option failed", null);
        }
    }

    /** poll_cqs: -C completions on each connected node's send (or receive) CQ, whatever their status. */
    private int pollCqs(boolean send) {
        for (CmatoseNode n : nodes) {
            if (n.connected) {
                int got = drain.take(send ? n.sendCq : n.recvCq, count, o.timeoutNanos(), wc -> { });
                if (got < count) {
                    return stalled(got);
                }
            }
        }
        return 0;
    }

    private static void disconnect(CmId id) {
        try {
            id.disconnect();
        } catch (VerbsException e) {
            // rdma_disconnect's result is not looked at: the peer may have ended the connection already
        }
    }
}
