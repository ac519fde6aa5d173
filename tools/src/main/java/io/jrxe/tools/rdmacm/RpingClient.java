package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.PortSpace;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * rping's client: resolves the server's address and route, connects (responder resources and initiator depth 1,
 * retry and RNR retry 7), and pings -C times (for ever with 0). Each ping fills the start buffer with its text,
 * SENDs its descriptor, waits for the server's "go ahead" (it has READ the buffer), SENDs the descriptor of the
 * RDMA buffer, waits for the second "go ahead" (it has WRITTEN the text back), compares the two buffers with -V
 * and prints the RDMA buffer with -v. Then it disconnects.
 */
final class RpingClient {
    /** How long the client waits for the answer to its DREQ before it tears down, so that its line comes in order. */
    private static final long DISCONNECT_WAIT_MILLIS = 3000;

    private final RpingSettings s;
    private final CmEventChannel channel;
    private final RpingConnection cb;

    RpingClient(RpingSettings s, CmEventChannel channel) {
        this.s = s;
        this.channel = channel;
        this.cb = new RpingConnection(s, false);
    }

    /** Runs the client from {@code source} (null: the route's) to the server; returns rping's exit status. */
    int run(InetSocketAddress source, InetSocketAddress server) throws InterruptedException, VerbsException {
        CmId id = channel.createId(PortSpace.TCP, cb);
        cb.id = id;
        s.debug("created cm_id %s", RpingSettings.pointer(id));
        try (CmEventPump pump = new CmEventPump(channel, e -> cb.onCmEvent(e, true), cb::end, s.err())) {
            pump.start();
            return runClient(source, server);
        } catch (RpingEnd e) {
            return RpingEnd.EXIT_STATUS;
        } finally {
            cb.close();
            s.debug("destroy cm_id %s", RpingSettings.pointer(id));
            id.close();
        }
    }

    /** rping_run_client. */
    private int runClient(InetSocketAddress source, InetSocketAddress server) throws InterruptedException {
        try {
            cb.id.resolveAddr(source, server, 2000);
        } catch (VerbsException e) {
            s.complain("rdma_resolve_addr: %s", e.getMessage());
            return RpingEnd.EXIT_STATUS;
        }
        RpingState state = cb.await();
        if (state != RpingState.ROUTE_RESOLVED) {
            s.complain("waiting for addr/route resolution state %d", state.number());
            return RpingEnd.EXIT_STATUS;
        }
        s.debug("rdma_resolve_addr - rdma_resolve_route successful");
        try {
            cb.setUp();
        } catch (VerbsException e) {
            s.complain("setup_qp failed: %s", e.getMessage());
            return RpingEnd.EXIT_STATUS;
        }
        if (!connect()) {
            s.complain("connect error %d", -1);
            return RpingEnd.EXIT_STATUS;
        }
        int ret = test();
        if (ret != 0) {
            s.complain("rping client failed: %d", ret);
        }
        cb.disconnect();
        awaitDisconnected();
        return ret == 0 ? 0 : RpingEnd.EXIT_STATUS;
    }

    /** rping_connect_client. */
    private boolean connect() throws InterruptedException {
        try {
            cb.id.connect(ConnectionParameters.defaults());
        } catch (VerbsException e) {
            s.complain("rdma_connect: %s", e.getMessage());
            return false;
        }
        RpingState state = cb.await();
        if (state != RpingState.CONNECTED) {
            s.complain("wait for CONNECTED state %d", state.number());
            return false;
        }
        s.debug("rdma_connect successful");
        return true;
    }

    /** rping_test_client: 0 when every ping went through (or the server disconnected), else -1. */
    private int test() throws InterruptedException {
        RpingResources r = cb.r;
        int size = s.size();
        try {
            for (int ping = 0; s.count() == 0 || ping < s.count(); ping++) {
                cb.state = RpingState.RDMA_READ_ADV;
                RpingPattern.fill(r.startBuf, ping);
                r.sendInfo(info(r.startBuf, r.startMr.rkey(), size));
                if (!cb.expect(RpingState.RDMA_WRITE_ADV)) {
                    return cb.state == RpingState.DISCONNECTED ? 0 : -1;
                }
                r.sendInfo(info(r.rdmaBuf, r.rdmaMr.rkey(), size));
                if (!cb.expect(RpingState.RDMA_WRITE_COMPLETE)) {
                    return cb.state == RpingState.DISCONNECTED ? 0 : -1;
                }
                if (s.validate() && r.startBuf.mismatch(r.rdmaBuf) >= 0) {
                    s.complain("data mismatch!");
                    return -1;
                }
                if (s.verbose()) {
                    s.out().println("ping data: " + RpingPattern.cString(r.rdmaBuf));
                    s.out().flush();
                }
            }
        } catch (VerbsException e) {
            s.complain("post send error %d", e.errno().value());
            return -1;
        }
        return 0;
    }

    private RdmaInfo info(MemorySegment buffer, int rkey, int size) {
        RdmaInfo info = new RdmaInfo(buffer.address(), rkey, size);
        s.debug("RDMA addr %x rkey %x len %d", info.address(), info.rkey(), info.size());
        return info;
    }

    /**
     * Waits, a bounded time, for the DISCONNECTED that the server's DREP brings: rping's process outlives that
     * answer by its teardown, so it prints "client DISCONNECT EVENT..." before it ends; a NIC closed at once would
     * not hear the answer.
     */
    private void awaitDisconnected() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DISCONNECT_WAIT_MILLIS);
        while (cb.state != RpingState.DISCONNECTED && System.nanoTime() < deadline) {
            cb.awaitFor(deadline - System.nanoTime());
        }
    }
}
