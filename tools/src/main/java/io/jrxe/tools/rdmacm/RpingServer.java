package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.PortSpace;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * rping's server: binds, listens (backlog 3), accepts one connection and serves pings on it until the client
 * disconnects; with -P it serves every connection that comes, each on a thread of its own, until killed. For
 * each ping it waits for the client's descriptor of its start buffer, READs it, SENDs "go ahead", waits for the
 * descriptor of the client's RDMA buffer, WRITEs what it read into it, and SENDs "go ahead" again.
 */
final class RpingServer {
    private final RpingSettings s;
    private final CmEventChannel channel;
    private final RpingConnection cb;
    /** The connections of persistent mode, by identifier: each CM event goes to its connection's block. */
    private final Map<CmId, RpingConnection> children = new ConcurrentHashMap<>();
    private CmId listener;

    RpingServer(RpingSettings s, CmEventChannel channel) {
        this.s = s;
        this.channel = channel;
        this.cb = new RpingConnection(s, true);
    }

    /** Runs the server on {@code bind}; returns rping's exit status. */
    int run(InetSocketAddress bind, boolean persistent) throws InterruptedException, VerbsException {
        listener = channel.createId(PortSpace.TCP, cb);
        s.debug("created cm_id %s", RpingSettings.pointer(listener));
        try (CmEventPump pump = new CmEventPump(channel, e -> {
            RpingConnection target = children.get(e.id());
            return (target != null ? target : cb).onCmEvent(e, e.id() == listener);
        }, this::endAll, s.err())) {
            pump.start();
            if (!bindAndListen(bind)) {
                return RpingEnd.EXIT_STATUS;
            }
            return persistent ? runPersistent() : runOnce();
        } catch (RpingEnd e) {
            return RpingEnd.EXIT_STATUS;
        } finally {
            s.debug("destroy cm_id %s", RpingSettings.pointer(listener));
            listener.close();
        }
    }

    private void endAll() {
        cb.end();
        children.values().forEach(RpingConnection::end);
    }

    /** rping_bind_server; jrxe says "rdma_listen" with -d once it listens, so that a script can wait for the line. */
    private boolean bindAndListen(InetSocketAddress bind) {
        try {
            listener.bindAddr(bind);
        } catch (VerbsException e) {
            s.complain("rdma_bind_addr: %s", e.getMessage());
            return false;
        }
        s.debug("rdma_bind_addr successful");
        try {
            listener.listen(3);
        } catch (VerbsException e) {
            s.complain("rdma_listen: %s", e.getMessage());
            return false;
        }
        s.debug("rdma_listen");
        return true;
    }

    /** rping_run_server: one connection. */
    private int runOnce() throws InterruptedException {
        if (!cb.expect(RpingState.CONNECT_REQUEST)) {
            return RpingEnd.EXIT_STATUS;
        }
        try (cb) {
            if (!setUpAndAccept(cb)) {
                return RpingEnd.EXIT_STATUS;
            }
            int ret = test(cb);
            if (ret != 0) {
                s.complain("rping server failed: %d", ret);
            }
            cb.disconnect();
            return ret == 0 ? 0 : RpingEnd.EXIT_STATUS;
        } finally {
            Quietly.close(cb.id);
        }
    }

    /** rping_run_persistent_server: a thread per connection, for ever. */
    private int runPersistent() throws InterruptedException {
        while (true) {
            if (!cb.expect(RpingState.CONNECT_REQUEST)) {
                return RpingEnd.EXIT_STATUS;
            }
            RpingConnection child = cb.forRequest(cb.id, cb.request);
            children.put(child.id, child);
            Thread.ofPlatform().daemon().name("rping connection").start(() -> serve(child));
        }
    }

    /** rping_persistent_server_thread. */
    private void serve(RpingConnection child) {
        try (child) {
            if (setUpAndAccept(child)) {
                test(child);
                child.disconnect();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RpingEnd e) {
            // the program is ending
        } finally {
            children.remove(child.id);
            Quietly.close(child.id);
        }
    }

    private boolean setUpAndAccept(RpingConnection c) throws InterruptedException {
        try {
            c.setUp();
        } catch (VerbsException e) {
            s.complain("setup_qp failed: %s", e.getMessage());
            return false;
        }
        s.debug("accepting client connection request");
        try {
            c.id.accept(LibrdmacmAccept.of(c.request, c.id));
        } catch (VerbsException e) {
            s.complain("rdma_accept: %s", e.getMessage());
            s.complain("connect error %d", -1);
            return false;
        }
        RpingState state = c.await();
        if (state == RpingState.ERROR) {
            s.complain("wait for CONNECTED state %d", state.number());
            s.complain("connect error %d", -1);
            return false;
        }
        return true;
    }

    /** rping_test_server: 0 when the loop ended with the client's disconnect, else -1. */
    private int test(RpingConnection c) throws InterruptedException {
        try {
            while (true) {
                if (!c.expect(RpingState.RDMA_READ_ADV)) {
                    break;
                }
                s.debug("server received sink adv");
                RdmaInfo source = c.remote;
                c.r.postRdma(WrOpcode.RDMA_READ, source, source.size());
                s.debug("server posted rdma read req ");
                if (!c.expect(RpingState.RDMA_READ_COMPLETE)) {
                    break;
                }
                s.debug("server received read complete");
                if (s.verbose()) {
                    s.out().println("server ping data: " + RpingPattern.cString(c.r.rdmaBuf));
                    s.out().flush();
                }
                c.r.sendGoAhead();
                s.debug("server posted go ahead");
                if (!c.expect(RpingState.RDMA_WRITE_ADV)) {
                    break;
                }
                s.debug("server received sink adv");
                int length = Math.min(RpingPattern.strlen(c.r.rdmaBuf) + 1, (int) c.r.rdmaBuf.byteSize());
                s.debug("rdma write from lkey %x laddr %x len %d", c.r.rdmaMr.lkey(), c.r.rdmaBuf.address(), length);
                c.r.postRdma(WrOpcode.RDMA_WRITE, c.remote, length);
                if (!c.expect(RpingState.RDMA_WRITE_COMPLETE)) {
                    break;
                }
                s.debug("server rdma write complete ");
                c.r.sendGoAhead();
                s.debug("server posted go ahead");
            }
        } catch (VerbsException e) {
            s.complain("post send error %d", e.errno().value());
        }
        return c.state == RpingState.DISCONNECTED ? 0 : -1;
    }
}
