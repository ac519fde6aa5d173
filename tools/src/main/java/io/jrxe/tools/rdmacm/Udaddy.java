package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;
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
 * udaddy's test (udaddy.c): -c UD "connections" in the UDP port space, each resolved by SIDR. The client asks
 * the service at port 7174 for its QP (SIDR_REQ), gets it in the SIDR_REP, and sends -C datagrams whose immediate
 * data is its own QP number; the server, which accepted each request with a UD QP of its own, receives them,
 * makes an address handle from the first one's GRH, and answers with as many datagrams. Every line goes to
 * stdout; the result is its "return status".
 */
final class Udaddy {
    /** udaddy's fixed port. */
    static final int PORT = 7174;
    private static final int ENOMEM = 12;
    private static final int EINVAL = 22;

    private final CmTestOptions o;
    private final PrintWriter out;
    private final PrintWriter err;
    private final CmEventChannel channel;
    private final UdaddyNode[] nodes;
    private final Map<CmId, UdaddyNode> byId = new IdentityHashMap<>();
    private final CqDrain drain = new CqDrain();
    private final int count;
    private int connIndex;
    private int connectsLeft;

    Udaddy(CmTestOptions o, CmEventChannel channel, PrintWriter out, PrintWriter err) {
        this.o = o;
        this.out = out;
        this.err = err;
        this.channel = channel;
        this.count = o.messageSize == 0 ? 0 : o.messageCount;
        this.nodes = new UdaddyNode[o.connections];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = new UdaddyNode(i);
        }
        this.connectsLeft = o.connections;
    }

    int run() throws InterruptedException, VerbsException {
        int ret;
        try {
            ret = o.isClient() ? runClient() : runServer();
            say("test complete");
        } finally {
            for (UdaddyNode n : nodes) {
                n.close();
            }
        }
        say("return status %d", ret);
        return ret;
    }

    private int runServer() throws InterruptedException, VerbsException {
        CmId listener = channel.createId(PortSpace.UDP, this);
        try {
            try {
                listener.bindAddr(new InetSocketAddress(o.serverBind(), PORT));
            } catch (VerbsException e) {
                say("udaddy: starting server");
                return perror("udaddy: bind address failed", e);
            }
            try {
                listener.listen(0);
            } catch (VerbsException e) {
                say("udaddy: starting server");
                return perror("udaddy: failure trying to listen", e);
            }
            say("udaddy: starting server"); // once it listens: a script may start the client on this line
            connectEvents(); // its result is not looked at, as in udaddy
            if (count == 0) {
                return 0;
            }
            say("receiving data transfers");
            int ret = pollCqs(true);
            if (ret != 0) {
                return ret;
            }
            say("sending replies");
            for (UdaddyNode n : nodes) {
                n.postSends(count, o.messageSize, true);
            }
            ret = pollCqs(false);
            if (ret != 0) {
                return ret;
            }
            say("data transfers complete");
            return 0;
        } finally {
            CmatoseNode.quietly(listener);
        }
    }

    private int runClient() throws InterruptedException, VerbsException {
        say("udaddy: starting client");
        InetSocketAddress server = new InetSocketAddress(o.serverAddress(), PORT);
        InetSocketAddress source = o.bindAddress() == null ? null : new InetSocketAddress(o.bindAddress(), 0);
        say("udaddy: connecting");
        for (UdaddyNode n : nodes) {
            n.id = channel.createId(PortSpace.UDP, n);
            byId.put(n.id, n);
            try {
                n.id.resolveAddr(source, server, 2000);
            } catch (VerbsException e) {
                connectsLeft--;
                return perror("udaddy: failure getting addr", e);
            }
        }
        int ret = connectEvents();
        if (ret != 0 || count == 0) {
            return ret;
        }
        say("initiating data transfers");
        for (UdaddyNode n : nodes) {
            n.postSends(count, o.messageSize, false);
        }
        say("receiving data transfers");
        ret = pollCqs(false);
        if (ret != 0) {
            return ret;
        }
        say("data transfers complete");
        return 0;
    }

    private int connectEvents() throws InterruptedException, VerbsException {
        int ret = 0;
        while (connectsLeft > 0 && ret == 0) {
            CmEvent e = channel.getEvent(1, TimeUnit.SECONDS);
            if (e != null) {
                ret = handle(e);
            }
        }
        return ret;
    }

    /** cma_handler. */
    private int handle(CmEvent e) {
        UdaddyNode node = byId.get(e.id());
        return switch (e.type()) {
            case ADDR_RESOLVED -> {
                if (o.typeOfService != null) {
                    perror("udaddy: set TOS option failed", null);
                }
                try {
                    e.id().resolveRoute(2000);
                    yield 0;
                } catch (VerbsException x) {
                    connectsLeft--;
                    yield perror("udaddy: resolve route failed", x);
                }
            }
            case ROUTE_RESOLVED -> connectNode(node);
            case CONNECT_REQUEST -> acceptRequest(e.id());
            case ESTABLISHED -> {
                try {
                    node.resolved(e.datagram());
                    node.connected = true;
                    connectsLeft--;
                    yield 0;
                } catch (VerbsException x) {
                    say("udaddy: failure creating address handle");
                    connectsLeft--;
                    yield -1;
                }
            }
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                say("udaddy: event: %s, error: %d", e.type().librdmacmName(), e.status());
                connectsLeft--;
                yield e.status();
            }
            default -> 0;
        };
    }

    /** verify_test_params: a datagram must fit the path MTU. */
    private int verifyParams(CmId id) throws VerbsException {
        PortInfo port = id.context().queryPort(id.portNum());
        int mtu = port.activeMtu().bytes();
        if (count > 0 && o.messageSize > mtu) {
            say("udaddy: message_size %d is larger than active mtu %d", o.messageSize, mtu);
            return -EINVAL;
        }
        return 0;
    }

    /** route_handler. */
    private int connectNode(UdaddyNode n) {
        try {
            int ret = verifyParams(n.id);
            if (ret != 0) {
                connectsLeft--;
                return ret;
            }
            n.init(count, o.messageSize);
            n.postRecvs(count, o.messageSize);
        } catch (VerbsException e) {
            connectsLeft--;
            return perror("udaddy: unable to create QP", e);
        }
        try {
            n.id.connect(new ConnectionParameters(new byte[0], 0, 0, 0, 0, 0, false, 0));
            return 0;
        } catch (VerbsException e) {
            connectsLeft--;
            return perror("udaddy: failure connecting", e);
        }
    }

    /** connect_handler: the next node serves the request with its UD QP, or the request is refused. */
    private int acceptRequest(CmId id) {
        if (connIndex == nodes.length) {
            say("udaddy: failing connection request");
            reject(id);
            return -ENOMEM;
        }
        UdaddyNode n = nodes[connIndex++];
        n.id = id;
        byId.put(id, n);
        try {
            int ret = verifyParams(id);
            if (ret == 0) {
                n.init(count, o.messageSize);
                n.postRecvs(count, o.messageSize);
                id.accept(new ConnectionParameters(new byte[0], 0, 0, 0, 0, 0, false, id.qp().qpNum()));
                n.connected = true;
                connectsLeft--;
                return 0;
            }
            n.id = null;
            connectsLeft--;
            say("udaddy: failing connection request");
            reject(id);
            CmatoseNode.quietly(id);
            return ret;
        } catch (VerbsException x) {
            err.println("udaddy: failure accepting: " + x.getMessage());
            err.flush();
            n.id = null;
            connectsLeft--;
            say("udaddy: failing connection request");
            reject(id);
            CmatoseNode.quietly(id);
            return -x.errno().value();
        }
    }

    /** poll_cqs: -C completions on each connected node's CQ; the server's first one gives it the reply's address. */
    private int pollCqs(boolean replyFromFirst) {
        for (UdaddyNode n : nodes) {
            if (!n.connected) {
                continue;
            }
            VerbsException[] failed = {null};
            int got = drain.take(n.cq, count, o.timeoutNanos(), wc -> {
                if (replyFromFirst && n.ah == null && failed[0] == null) {
                    try {
                        n.replyTo(wc.immData());
                    } catch (VerbsException e) {
                        failed[0] = e;
                    }
                }
            });
            if (failed[0] != null) {
                say("udaddy: failed to create reply AH");
                return -1;
            }
            if (got < count) {
                say("udaddy: failed polling CQ: %d (%d of %d completions in %d s)", -110, got, count, o.timeoutSeconds);
                return -110;
            }
        }
        return 0;
    }

    private void reject(CmId id) {
        try {
            id.reject(null);
        } catch (VerbsException e) {
            // the request is gone already
        }
    }

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
