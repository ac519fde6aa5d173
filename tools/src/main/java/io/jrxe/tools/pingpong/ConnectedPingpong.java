package io.jrxe.tools.pingpong;

import io.jrxe.tools.common.Gids;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.psn.LocalAckTimeout;
import picocli.CommandLine.Option;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The pingpongs over connected QPs: ibv_rc_pingpong, ibv_uc_pingpong and ibv_srq_pingpong. They share the
 * message size and path MTU options, one buffer that every QP sends from and receives into, and the
 * connection: RTR towards the peer's QPN and PSN with a hop limit of 1, then RTS. RC adds the reliable
 * transport's attributes (timeouts, retries, RDMA resources); UC has none of them.
 */
abstract class ConnectedPingpong extends PingpongBase {
    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", defaultValue = "4096", description = "size of message to exchange (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = {"-m", "--mtu"}, paramLabel = "MTU", defaultValue = "1024", description = "path MTU: 256, 512, 1024, 2048 or 4096 (default: ${DEFAULT-VALUE})")
    int mtu;

    @Option(names = "--qp-timeout", paramLabel = "TIMEOUT", defaultValue = "14",
            description = "an RC QP's local ACK timeout, 4.096 us * 2^TIMEOUT, as perftest's -u (jrxe's option: the rdma-core "
                    + "pingpongs always set ${DEFAULT-VALUE}, 67 ms; a peer that can stall longer, a guest under emulation, "
                    + "needs more; default: ${DEFAULT-VALUE})")
    int qpTimeout;

    /** RC or UC. */
    abstract QpType type();

    /** True when one SRQ feeds every QP's receives. */
    boolean sharedReceiveQueue() {
        return false;
    }

    @Override
    int size() {
        return size;
    }

    @Override
    String localGidSeparator() {
        return ",";
    }

    @Override
    void validateMore() {
        try {
            Mtu.ofBytes(mtu);
        } catch (IllegalArgumentException e) {
            throw bad("-m/--mtu " + mtu + ": " + e.getMessage());
        }
        if (qpTimeout < 0 || qpTimeout > 31) {
            throw bad("--qp-timeout " + qpTimeout + ": a QP timeout is 0..31 (0: wait for ever)");
        }
    }

    @Override
    Session open(LocalDevice dev, int timeoutMillis) {
        return new ConnectedSession(dev, (int) Math.max(timeoutMillis, retriesMillis()));
    }

    /**
     * How long an RC QP may retry before it reports RETRY_EXC_ERR itself: retry_cnt 7 is eight local ACK timeouts of
     * --qp-timeout, each up to half again (jrxe spreads its timers), and a second to spare. Waiting for completions
     * no longer than that, the program would say "the peer stopped answering" before the QP says how its last
     * request ended (with --qp-timeout 18, 12.9 s against the default 10 s).
     */
    private long retriesMillis() {
        if (qpTimeout == 0) {
            return 0; // the QP waits for ever: the program's own timeout is all there is
        }
        return 8 * LocalAckTimeout.nanos(qpTimeout) * 3 / 2 / 1_000_000L + 1_000L;
    }

    private final class ConnectedSession extends Session {
        ConnectedSession(LocalDevice dev, int timeoutMillis) {
            // The CQ takes every receive and each QP's one send, as the rdma-core programs size it.
            super(new SessionResources(dev, size, Access.LOCAL_WRITE | (onDemand() ? Access.ON_DEMAND : 0),
                            implicitOnDemand(), rxDepth + qpCount(), events, timeoutMillis), type(),
                    rxDepth, new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(ibPort.number()).accessFlags(0),
                    qpCount(), sharedReceiveQueue());
            if (prefetch()) {
                prefetchBuffer();
            }
            recv.wrId = RECV_WRID;
            recv.sgl.add(r.buf.address(), size, r.mr.lkey());
            send.wrId = SEND_WRID;
            send.opcode = WrOpcode.SEND;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(r.buf.address(), size, r.mr.lkey());
        }

        /**
         * ibv_advise_mr PREFETCH_WRITE with FLUSH over the whole buffer, so that neither sending from it nor receiving
         * into it faults. As ibv_rc_pingpong, a device that cannot prefetch is told on stderr and the run goes on.
         */
        private void prefetchBuffer() {
            try {
                r.mr.advisePrefetch(r.buf.address(), size, true, true);
            } catch (VerbsException e) {
                spec.commandLine().getErr().println("Couldn't prefetch MR: " + e.getMessage() + ". Continue anyway");
            }
        }

        @Override
        void connect(int index, PingpongDest remote, int myPsn, int sgidIndex) throws VerbsException {
            if (!Gids.hasInterfaceId(remote.gid())) {
                throw new VerbsException(io.jrxe.verbs.Errno.EINVAL, "the peer sent no GID (run it with -g "
                        + "GID_INDEX): on RoCE every packet needs a GRH, so a QP cannot be connected by LID alone");
            }
            // The rdma-core programs' RTR and RTS attributes; they send with hop limit 1.
            QpAttributes rtr = new QpAttributes().state(QpState.RTR)
                    .av(new AddressVector(remote.gid(), sgidIndex, 1, 0, 0, sl, ibPort.number()))
                    .pathMtu(Mtu.ofBytes(mtu)).destQpn(remote.qpn()).rqPsn(remote.psn());
            QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(myPsn);
            if (type() == QpType.RC) {
                rtr.maxDestRdAtomic(1).minRnrTimer(12);
                rts.timeout(qpTimeout).retryCnt(7).rnrRetry(7).maxRdAtomic(1);
            }
            qp(index).modify(rtr);
            qp(index).modify(rts);
        }

        @Override
        void fillPattern() {
            fill(r.buf, 0, size);
        }

        @Override
        List<Integer> invalidPages() {
            return check(r.buf, 0, size);
        }
    }

    /**
     * The client's pattern: the rdma-core pingpongs leave their 0x7b fill and write the first byte of every
     * page (with the value {@code i / page_size % sizeof(char)}, which is 0).
     */
    static void fill(MemorySegment buf, long offset, int size) {
        for (int i = 0; i < size; i += PAGE_SIZE) {
            buf.set(ValueLayout.JAVA_BYTE, offset + i, (byte) 0);
        }
    }

    /**
     * The pages that do not hold the client's pattern. The rdma-core pingpongs check the first byte of each
     * page; jrxe checks every byte, which the real client's message passes too.
     */
    static List<Integer> check(MemorySegment buf, long offset, int size) {
        List<Integer> bad = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            byte expected = i % PAGE_SIZE == 0 ? 0 : (byte) 0x7b;
            if (buf.get(ValueLayout.JAVA_BYTE, offset + i) != expected) {
                int page = i / PAGE_SIZE;
                if (bad.isEmpty() || bad.getLast() != page) {
                    bad.add(page);
                }
                i = (page + 1) * PAGE_SIZE - 1;
            }
        }
        return bad;
    }
}
