package io.jrxe.tools.perftest;

import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.verbs.idle.LatencyIdle;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.CqParker;
import io.jrxe.tools.common.VendorErrText;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.cm.CmEvent;
import io.jrxe.verbs.cm.CmEventChannel;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.verbs.cm.CmId;
import io.jrxe.verbs.cm.ConnectionParameters;
import io.jrxe.verbs.cm.RdmaCm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * perftest's exchange with -R (its use_rdma_cm, which -R turns on): an RC QP that the connection manager connects on
 * the test's port, over which each piece of the exchange is one SEND into the peer's one posted receive
 * (rdma_write_data, rdma_read_data). perftest's receive takes {@value DestStruct#SIZE} bytes (the struct of the key
 * messages), and it re-posts it after each read, so a SEND that comes first waits in RNR retries (7: for ever).
 * jrxe keeps several receives posted, so its peer never waits on it.
 *
 * <p>The server accepts one connection and then destroys its listening identifier, as perftest does, so that the
 * port is free for the test's QPs ({@link CmTestQps}).
 */
final class CmExchange implements ExchangeChannel {
    private static final int SLOT = 512;
    private static final int RECEIVES = 4;
    private static final int SEND_SLOT = RECEIVES;

    private final CmEventChannel channel;
    private final CmId id;
    private final String peer;
    private final int timeoutMillis;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buf;
    private final Pd pd;
    private final Mr mr;
    private final Cq sendCq;
    private final Cq recvCq;
    private final WorkCompletion wc = new WorkCompletion();
    /** What the last SEND carried beyond what its read took, for {@link #readTail}. */
    private byte[] rest = new byte[0];

    private CmExchange(CmEventChannel channel, CmId id, Context context, String peer, int timeoutMillis) throws VerbsException {
        this.channel = channel;
        this.id = id;
        this.peer = peer;
        this.timeoutMillis = timeoutMillis;
        this.buf = arena.allocate((long) (RECEIVES + 1) * SLOT, 4096);
        this.pd = context.allocPd();
        this.mr = pd.regMr(buf, Access.LOCAL_WRITE);
        this.sendCq = context.createCq(16, null);
        this.recvCq = context.createCq(16, null);
    }

    /** The parameters of perftest's exchange connection: a SEND-only QP, retries 7. */
    private static ConnectionParameters parameters() {
        return new ConnectionParameters(null, 0, 0, 0, 7, 7, false, 0);
    }

    /**
     * The server: listens on {@code bind}, runs {@code listening} (the banner: a client that came before the listener
     * would be refused, and perftest's gives up at once), accepts one client, stops listening.
     */
    static CmExchange accept(RdmaCm cm, InetSocketAddress bind, int acceptTimeoutMillis, int timeoutMillis, Runnable listening) {
        CmEventChannel channel = createChannel(cm);
        CmId listener = null;
        CmId id = null;
        try {
            listener = CmSteps.listen(channel, bind, 1);
            listening.run();
            CmEvent request = CmSteps.await(channel, CmEventType.CONNECT_REQUEST, acceptTimeoutMillis,
                    "waiting for the client on port " + bind.getPort());
            id = request.id();
            CmExchange x = new CmExchange(channel, id, id.context(), String.valueOf(id.remoteAddress()), timeoutMillis);
            x.createQp();
            id.accept(parameters());
            CmSteps.await(channel, CmEventType.ESTABLISHED, timeoutMillis, "accepting the client");
            return x;
        } catch (VerbsException e) {
            CmSteps.closeQuietly(id);
            closeQuietly(channel);
            throw new UserError("rdma_cm, the exchange's connection: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            CmSteps.closeQuietly(id);
            CmSteps.closeQuietly(listener);
            closeQuietly(channel);
            throw e;
        } finally {
            CmSteps.closeQuietly(listener);
        }
    }

    /** The client: connects to the server's port. */
    static CmExchange connect(RdmaCm cm, InetSocketAddress source, InetSocketAddress server, int timeoutMillis) {
        CmEventChannel channel = createChannel(cm);
        CmExchange[] made = new CmExchange[1];
        try {
            CmSteps.connect(channel, source, server, parameters(), id -> {
                if (made[0] != null) {
                    made[0].release();
                }
                made[0] = new CmExchange(channel, id, id.context(), server.toString(), timeoutMillis);
                made[0].createQp();
            }, timeoutMillis, "the exchange's connection");
            return made[0];
        } catch (RuntimeException e) {
            if (made[0] != null) {
                made[0].release();
            }
            closeQuietly(channel);
            throw e;
        }
    }

    private static CmEventChannel createChannel(RdmaCm cm) {
        try {
            return cm.createEventChannel();
        } catch (VerbsException e) {
            throw new UserError("rdma_create_event_channel: " + e.getMessage(), e);
        }
    }

    private void createQp() throws VerbsException {
        id.createQp(pd, new QpInitAttributes(QpType.RC, sendCq, recvCq, null, new QpCapabilities(4, RECEIVES, 1, 1, 0), false));
        for (int i = 0; i < RECEIVES; i++) {
            postReceive(i);
        }
    }

    private void postReceive(int slot) throws VerbsException {
        RecvWr r = new RecvWr(1);
        r.wrId = slot;
        r.sgl.add(buf.address() + (long) slot * SLOT, SLOT, mr.lkey());
        id.qp().postRecv(r);
    }

    @Override
    public void write(byte[] bytes, String what) {
        if (bytes.length > SLOT) {
            throw new IllegalArgumentException("an exchange message of " + bytes.length + " bytes");
        }
        MemorySegment.copy(bytes, 0, buf, ValueLayout.JAVA_BYTE, (long) SEND_SLOT * SLOT, bytes.length);
        SendWr wr = new SendWr(1);
        wr.wrId = SEND_SLOT;
        wr.opcode = WrOpcode.SEND;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(buf.address() + (long) SEND_SLOT * SLOT, bytes.length, mr.lkey());
        try {
            id.qp().postSend(wr);
        } catch (VerbsException e) {
            throw new UserError("rdma_cm exchange, sending " + what + " to " + peer + ": " + e.getMessage(), e);
        }
        await(sendCq, what, false, "sending");
    }

    @Override
    public byte[] readExactly(int n, String what) {
        return read(n, what, false);
    }

    @Override
    public byte[] readExactlyUnbounded(int n, String what) {
        return read(n, what, true);
    }

    private byte[] read(int n, String what, boolean unbounded) {
        await(recvCq, what, unbounded, "receiving");
        int slot = (int) wc.wrId();
        int length = wc.byteLen();
        if (length < n) {
            throw new UserError("the peer " + peer + " sent " + length + " bytes for " + what + ", not " + n);
        }
        byte[] message = new byte[length];
        MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, (long) slot * SLOT, message, 0, length);
        try {
            postReceive(slot);
        } catch (VerbsException e) {
            throw new UserError("rdma_cm exchange, re-posting a receive: " + e.getMessage(), e);
        }
        rest = Arrays.copyOfRange(message, n, length);
        return Arrays.copyOf(message, n);
    }

    /** A SEND is whole: what follows a read is what its message carried beyond it, there is nothing to wait for. */
    @Override
    public byte[] readTail(int max, int graceMillis, String what) {
        byte[] tail = Arrays.copyOf(rest, Math.min(max, rest.length));
        rest = new byte[0];
        return tail;
    }

    /** Polls {@code cq} for the one completion this exchange waits for; a peer that left ends an unbounded wait. */
    private void await(Cq cq, String what, boolean unbounded, String doing) {
        long start = System.nanoTime();
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        BackoffIdle idle = new BackoffIdle(CqParker.of(cq));
        WorkCompletion[] one = {wc};
        for (int looks = 1; cq.poll(one) == 0; looks++) {
            boolean late = idle.idle(looks, start, timeoutNanos);
            if (unbounded) {
                if (looks >= LatencyIdle.SPINS_BEFORE_YIELD) {
                    peerLeft(what);
                }
            } else if (late) {
                throw new UserError("rdma_cm exchange: " + peer + " sent nothing within " + timeoutMillis + " ms while "
                        + doing + " " + what);
            }
        }
        if (wc.status() != WcStatus.SUCCESS) {
            throw new UserError("rdma_cm exchange, " + doing + " " + what + ": completion with error " + wc.status() + " ("
                    + wc.status().description() + ")");
        }
    }

    private void peerLeft(String what) {
        try {
            CmEvent e = channel.pollEvent();
            if (e != null && e.type() == CmEventType.DISCONNECTED) {
                throw new UserError("the peer " + peer + " disconnected while this side waited for " + what);
            }
        } catch (VerbsException e) {
            throw new UserError("rdma_get_cm_event: " + e.getMessage(), e);
        }
    }

    @Override
    public String peer() {
        return peer;
    }

    @Override
    public boolean binaryKeys() {
        return true;
    }

    /** Frees what this exchange made on its identifier (the QP, then the memory), and the identifier. */
    private void release() {
        CmSteps.closeQuietly(id);
        try {
            mr.close();
            sendCq.close();
            recvCq.close();
            pd.close();
        } catch (VerbsException e) {
            // the device's end frees the rest
        }
        arena.close();
    }

    @Override
    public void close() {
        release();
        closeQuietly(channel);
    }

    private static void closeQuietly(CmEventChannel channel) {
        try {
            channel.close();
        } catch (VerbsException e) {
            // going away anyway
        }
    }
}
