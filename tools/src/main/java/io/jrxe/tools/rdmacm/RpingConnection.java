package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmId;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One side of one rping connection (rping's control block): its state, the semaphore the CM and completion
 * handlers wake the main thread with, its resources and its completion thread. The handlers run on the CM
 * event thread and on the completion thread; the test loops on the connection's own thread.
 */
final class RpingConnection implements AutoCloseable {
    /** How long one wait for a completion event lasts before the thread looks whether it is to stop. */
    private static final long CQ_POLL_MILLIS = 100;

    final RpingSettings s;
    final boolean server;
    private final Semaphore sem = new Semaphore(0);
    volatile RpingState state = RpingState.IDLE;
    /** The identifier that carries the connection: the client's own, or the server's CONNECT_REQUEST one. */
    volatile CmId id;
    /** Set when the CM event thread ended the program (rping's exit from its cm_thread). */
    private volatile boolean ended;
    /** The CONNECT_REQUEST's parameters, which rdma_accept(id, NULL) answers. */
    volatile io.jrxe.verbs.cm.ConnectionParameters request;
    RpingResources r;
    RdmaInfo remote;
    private Thread cqThread;
    private volatile boolean stopping;

    RpingConnection(RpingSettings s, boolean server) {
        this.s = s;
        this.server = server;
    }

    /** A server's connection for a CONNECT_REQUEST's identifier (rping's clone_cb in persistent mode). */
    RpingConnection forRequest(CmId child, io.jrxe.verbs.cm.ConnectionParameters parameters) {
        RpingConnection c = new RpingConnection(s, true);
        c.id = child;
        c.request = parameters;
        c.state = RpingState.CONNECT_REQUEST;
        return c;
    }

    void post() {
        sem.release();
    }

    /** sem_wait: the state after the next wake-up; {@link RpingEnd} when the CM event thread ended the program. */
    RpingState await() throws InterruptedException {
        sem.acquire();
        if (ended) {
            throw new RpingEnd();
        }
        return state;
    }

    /**
     * A wait for the state rping's loop expects next: false, after rping's "wait for STATE state N" line, when
     * the state is another (the peer disconnected: 10, a completion failed: 11).
     */
    boolean expect(RpingState expected) throws InterruptedException {
        RpingState now = await();
        if (now != expected) {
            s.complain("wait for %s state %d", expected, now.number());
            return false;
        }
        return true;
    }

    /** A wait for the next wake-up of at most {@code nanos}, whatever the state then is. */
    void awaitFor(long nanos) throws InterruptedException {
        if (nanos > 0) {
            sem.tryAcquire(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** The CM event thread ends the program: whatever waits stops waiting. */
    void end() {
        ended = true;
        sem.release(Integer.MAX_VALUE / 2);
    }

    /** rping_cma_event_handler; false for the events after which rping exits. */
    boolean onCmEvent(CmEvent e, boolean parent) {
        s.debug("cma_event type %s cma_id %s (%s)", e.type().librdmacmName(), RpingSettings.pointer(e.id()),
                parent ? "parent" : "child");
        switch (e.type()) {
            case ADDR_RESOLVED -> {
                state = RpingState.ADDR_RESOLVED;
                try {
                    e.id().resolveRoute(2000);
                } catch (VerbsException x) {
                    state = RpingState.ERROR;
                    s.complain("rdma_resolve_route: %s", x.getMessage());
                    post();
                }
            }
            case ROUTE_RESOLVED -> {
                state = RpingState.ROUTE_RESOLVED;
                post();
            }
            case CONNECT_REQUEST -> {
                state = RpingState.CONNECT_REQUEST;
                id = e.id();
                request = e.connection();
                s.debug("child cma %s", RpingSettings.pointer(e.id()));
                post();
            }
            case CONNECT_RESPONSE -> {
                s.debug("CONNECT_RESPONSE");
                state = RpingState.CONNECTED;
                post();
            }
            case ESTABLISHED -> {
                s.debug("ESTABLISHED");
                if (!server) { // the server wakes when the first receive completes
                    state = RpingState.CONNECTED;
                }
                post();
            }
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED -> {
                s.complain("cma event %s, error %d", e.type().librdmacmName(), e.status());
                return false; // the pump's end() wakes the main thread, which then ends without a line of its own
            }
            case DISCONNECTED -> {
                s.complain("%s DISCONNECT EVENT...", server ? "server" : "client");
                state = RpingState.DISCONNECTED;
                post();
            }
            case DEVICE_REMOVAL -> {
                s.complain("cma detected device removal!!!!");
                state = RpingState.ERROR;
                return false;
            }
            // The kernel's time-wait lasts about 2 s (local ACK timeout 19), longer than rping takes to destroy the
            // identifier after DISCONNECTED, so rping never meets this event; jrxe's CM leaves time-wait sooner.
            case TIMEWAIT_EXIT -> s.debug("TIMEWAIT_EXIT");
            default -> s.complain("unhandled event: %s, ignoring", e.type().librdmacmName());
        }
        return true;
    }

    /** rping_setup_qp and rping_setup_buffers on the connection's identifier, the first receive, the completion thread. */
    void setUp() throws VerbsException {
        r = new RpingResources(id, s.size(), !server, s);
        r.postRecv();
        cqThread = Thread.ofPlatform().daemon().name("rping completions").start(this::cqThread);
        s.debug("cq_thread started.");
    }

    /** rping's cq_thread: sleeps on the completion channel and handles what completed, until a flush or an error. */
    private void cqThread() {
        WorkCompletion[] wc = {new WorkCompletion()};
        try {
            while (!stopping) {
                if (r.channel.awaitEvent(CQ_POLL_MILLIS, TimeUnit.MILLISECONDS) == null) {
                    continue;
                }
                r.cq.requestNotify(false);
                if (handleCompletions(wc)) {
                    return;
                }
            }
        } catch (VerbsException e) {
            s.complain("Failed to get cq event!");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** rping_cq_event_handler: true when the thread is done (a flushed completion, or an error). */
    private boolean handleCompletions(WorkCompletion[] wc) throws VerbsException {
        boolean flushed = false;
        while (r.cq.poll(wc) == 1) {
            WorkCompletion c = wc[0];
            if (c.status() != WcStatus.SUCCESS) {
                if (c.status() == WcStatus.WR_FLUSH_ERR) {
                    flushed = true;
                    continue;
                }
                s.complain("cq completion failed status %d", c.status().verbsValue());
                return failed();
            }
            switch (c.opcode()) {
                case SEND -> s.debug("send completion");
                case RDMA_WRITE -> {
                    s.debug("rdma write completion");
                    state = RpingState.RDMA_WRITE_COMPLETE;
                    post();
                }
                case RDMA_READ -> {
                    s.debug("rdma read completion");
                    state = RpingState.RDMA_READ_COMPLETE;
                    post();
                }
                case RECV -> {
                    s.debug("recv completion");
                    if (c.byteLen() != RdmaInfo.BYTES) {
                        s.complain("Received bogus data, size %d", c.byteLen());
                        s.complain("recv wc error: %d", -1);
                        return failed();
                    }
                    if (server) {
                        serverRecv();
                    } else {
                        state = state == RpingState.RDMA_READ_ADV ? RpingState.RDMA_WRITE_ADV : RpingState.RDMA_WRITE_COMPLETE;
                    }
                    r.postRecv();
                    post();
                }
                default -> {
                    s.debug("unknown!!!!! completion");
                    return failed();
                }
            }
        }
        return flushed;
    }

    /** server_recv: the descriptor arrived; a first one (or one after a WRITE) is to READ from, else to WRITE into. */
    private void serverRecv() {
        remote = r.received();
        s.debug("Received rkey %x addr %x len %d from peer", remote.rkey(), remote.address(), remote.size());
        RpingState now = state;
        state = now.ordinal() <= RpingState.CONNECTED.ordinal() || now == RpingState.RDMA_WRITE_COMPLETE
                ? RpingState.RDMA_READ_ADV : RpingState.RDMA_WRITE_ADV;
    }

    private boolean failed() {
        state = RpingState.ERROR;
        post();
        return true;
    }

    /** rping_disconnect: rdma_disconnect; a connection already ended by the peer needs nothing more. */
    void disconnect() {
        try {
            id.disconnect();
        } catch (VerbsException e) {
            s.debug("rdma_disconnect: %s", e.getMessage());
        }
    }

    /** Stops the completion thread (pthread_join after the flush, or its cancellation) and frees the resources. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        if (cqThread != null) {
            cqThread.join(10 * CQ_POLL_MILLIS);
        }
        if (r != null) {
            r.close();
        }
    }
}
