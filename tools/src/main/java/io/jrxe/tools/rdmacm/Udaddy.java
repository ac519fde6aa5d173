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
 * udaddy's test (udaddy.c): -c UD "connections" in the UDP port space, each resolved by SIDR. The client asks
 * the service at port 7174 for its QP (SIDR_REQ), gets it in the SIDR_REP, and sends -C datagrams whose immediate
 * data is its own QP number; the server, which accepted each request with a UD QP of its own, receives them,
 * makes an address handle from the first one's GRH, and answers with as many. Every line goes to stdout; the
 * result is its "return status".
 */
final class Udaddy extends CmTestRun<UdaddyNode> {
    /** udaddy's fixed port. */
    static final int PORT = 7174;
    private static final int EINVAL = 22;

    Udaddy(CmTestOptions o, CmEventChannel channel, PrintWriter out, PrintWriter err) {
        super("udaddy", o, channel, out, err, nodes(o.connections));
    }

    private static UdaddyNode[] nodes(int n) {
        UdaddyNode[] nodes = new UdaddyNode[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = new UdaddyNode(i);
        }
        return nodes;
    }

    @Override
    int runServer() throws InterruptedException, VerbsException {
        CmId listener = channel.createId(PortSpace.UDP, this);
        try {
            try {
                listener.bindAddr(new InetSocketAddress(o.serverBind(), PORT));
                listener.listen(0);
            } catch (VerbsException e) {
                say("udaddy: starting server");
                return perror("udaddy: bind address failed", e);
            }
            say("udaddy: starting server"); // once it listens: a script may start the client on this line
            events(() -> connectsLeft > 0); // its result is not looked at, as in udaddy
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
            Quietly.close(listener);
        }
    }

    @Override
    int runClient() throws InterruptedException, VerbsException {
        say("udaddy: starting client");
        if (resolveAll(PortSpace.UDP, PORT) != 0) {
            return -1;
        }
        int ret = events(() -> connectsLeft > 0);
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

    @Override
    int handle(CmEvent e) {
        UdaddyNode node = byId.get(e.id());
        return switch (e.type()) {
            case ADDR_RESOLVED -> {
                setTos();
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
        int mtu = id.context().queryPort(id.portNum()).activeMtu().bytes();
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
            n.postRecvs(count, o.messageSize + UdaddyNode.GRH);
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
    private int acceptRequest(CmId request) {
        UdaddyNode n = nextNode(request);
        if (n == null) {
            return -ENOMEM;
        }
        try {
            int ret = verifyParams(request);
            if (ret != 0) {
                fail(n, request);
                return ret;
            }
            n.init(count, o.messageSize);
            n.postRecvs(count, o.messageSize + UdaddyNode.GRH);
            request.accept(new ConnectionParameters(new byte[0], 0, 0, 0, 0, 0, false, request.qp().qpNum()));
            n.connected = true;
            connectsLeft--;
            return 0;
        } catch (VerbsException x) {
            perror("udaddy: failure accepting", x);
            fail(n, request);
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
                return stalled(got);
            }
        }
        return 0;
    }
}
