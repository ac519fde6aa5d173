package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmId;

import java.io.PrintWriter;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What ucmatose and udaddy share (struct cmatest and its helpers): the nodes, the count of connections still to
 * come, the event loop that hands each CM event to the program's handler, their printf and perror lines, and the
 * end of main: "test complete", the teardown, "return status N".
 */
abstract class CmTestRun<N extends CmTestNode> {
    static final int ENOMEM = 12;

    final CmTestOptions o;
    final String name;
    final PrintWriter out;
    final PrintWriter err;
    final CmEventChannel channel;
    final N[] nodes;
    final Map<CmId, N> byId = new IdentityHashMap<>();
    final CqDrain drain = new CqDrain();
    /** -C, or none when the messages have no size (create_message sets message_count to 0 then). */
    final int count;
    int connIndex;
    int connectsLeft;

    CmTestRun(String name, CmTestOptions o, CmEventChannel channel, PrintWriter out, PrintWriter err, N[] nodes) {
        this.name = name;
        this.o = o;
        this.out = out;
        this.err = err;
        this.channel = channel;
        this.count = o.messageSize == 0 ? 0 : o.messageCount;
        this.nodes = nodes;
        this.connectsLeft = o.connections;
    }

    /** main after the options: the client or the server, "test complete", the teardown; returns the status. */
    final int run() throws InterruptedException, VerbsException {
        int ret;
        try {
            ret = o.isClient() ? runClient() : runServer();
            say("test complete");
        } finally {
            for (N n : nodes) {
                n.close();
            }
        }
        say("return status %d", ret);
        return ret;
    }

    abstract int runServer() throws InterruptedException, VerbsException;

    abstract int runClient() throws InterruptedException, VerbsException;

    /** cma_handler: what one event does; its result ends the loop when it is not 0. */
    abstract int handle(CmEvent e);

    /** Hands events to the handler while {@code more} says so and it answers 0 (connect_events, disconnect_events). */
    final int events(java.util.function.BooleanSupplier more) throws InterruptedException, VerbsException {
        int ret = 0;
        while (more.getAsBoolean() && ret == 0) {
            CmEvent e = channel.getEvent(1, TimeUnit.SECONDS); // as long as it takes: the CM's timeouts bound a client
            if (e != null) {
                ret = handle(e);
            }
        }
        return ret;
    }

    /** The client's start: an identifier for each node, its address resolved towards the server (from -b if given). */
    final int resolveAll(io.jrxe.verbs.cm.PortSpace space, int port) throws VerbsException {
        java.net.InetSocketAddress server = new java.net.InetSocketAddress(o.serverAddress(), port);
        java.net.InetSocketAddress source = o.bindAddress() == null ? null : new java.net.InetSocketAddress(o.bindAddress(), 0);
        say("%s: connecting", name);
        for (N n : nodes) {
            n.id = channel.createId(space, n);
            byId.put(n.id, n);
            try {
                n.id.resolveAddr(source, server, 2000);
            } catch (VerbsException e) {
                connectsLeft--;
                return perror(name + ": failure getting addr", e);
            }
        }
        return 0;
    }

    /** The node a CONNECT_REQUEST gets, or null (with the program's line and a REJ) when every node has one. */
    final N nextNode(CmId request) {
        if (connIndex == nodes.length) {
            say("%s: failing connection request", name);
            reject(request);
            return null;
        }
        N n = nodes[connIndex++];
        n.id = request;
        byId.put(request, n);
        return n;
    }

    /** A node that could not take its request gives it up: the program's line, a REJ. */
    final void fail(N n, CmId request) {
        n.id = null;
        connectsLeft--;
        say("%s: failing connection request", name);
        reject(request);
        Quietly.close(request);
    }

    /** -t: rdma_set_option, which jrxe's CM does not have: the program says it failed and goes on. */
    final void setTos() {
        if (o.typeOfService != null) {
            perror(name + ": set TOS option failed", null);
        }
    }

    /** poll_cqs' wait: -C completions of one CQ, or the failure line and -110 when the transfer stalled. */
    final int stalled(int got) {
        say("%s: failed polling CQ: %d (%d of %d completions in %d s)", name, -110, got, count, o.timeoutSeconds);
        return -110;
    }

    final void reject(CmId id) {
        try {
            id.reject(null);
        } catch (VerbsException e) {
            // the request is gone already
        }
    }

    /** perror's line on stderr; -1, as a librdmacm call returns on failure. */
    final int perror(String what, VerbsException e) {
        err.println(what + ": " + (e == null ? "Function not implemented (jrxe's connection manager has no rdma_set_option)"
                : e.getMessage()));
        err.flush();
        return -1;
    }

    final void say(String format, Object... args) {
        out.printf(format + "%n", args);
        out.flush();
    }
}
