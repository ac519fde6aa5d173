package io.jrxe.tools.pingpong;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.Gids;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.verbs.VerbsException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/** `jrxe pingpong`: ibv_rc_pingpong on a jrxe NIC or a kernel device, its options, output and TCP exchange. */
@Command(name = "pingpong", mixinStandardHelpOptions = true,
        description = "ibv_rc_pingpong on a jrxe NIC or a kernel device (-d): an RC QP sends a message, the peer echoes it, ITERS times; "
                + "then the bandwidth and the time per exchange. Without SERVERNAME it is the server and waits for a "
                + "client (jrxe's or the real ibv_rc_pingpong, which needs -g there).")
public final class RcPingpongCommand extends PingpongBase {
    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", defaultValue = "4096", description = "size of message to exchange (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = {"-m", "--mtu"}, paramLabel = "MTU", defaultValue = "1024", description = "path MTU: 256, 512, 1024, 2048 or 4096 (default: ${DEFAULT-VALUE})")
    int mtu;

    @Option(names = {"-o", "--odp"}, description = "use on-demand paging (jrxe has none: refused)")
    boolean odp;

    @Option(names = {"-O", "--iodp"}, description = "use implicit on-demand paging (jrxe has none: refused)")
    boolean implicitOdp;

    @Option(names = {"-P", "--prefetch"}, description = "prefetch an ODP MR (refused, as without ODP)")
    boolean prefetch;

    @Option(names = {"-t", "--ts"}, description = "get CQEs with timestamps (jrxe has none: refused)")
    boolean timestamps;

    @Option(names = {"-j", "--dm"}, description = "use device memory (jrxe has none: refused)")
    boolean deviceMemory;

    @Option(names = {"-N", "--new_send"}, description = "use the new post send WR API (same work requests on jrxe)")
    boolean newSend;

    @Option(names = {"-U", "--allow-cc-unprotected"}, description = "CoCo guests' unprotected memory (nothing to do on jrxe)")
    boolean ccUnprotected;

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
        if (odp && deviceMemory) {
            throw bad("-j/--dm with -o/--odp: DM memory region can't be on demand");
        }
        if (prefetch && !odp && !implicitOdp) {
            throw bad("-P/--prefetch: prefetch is valid only with on-demand memory region");
        }
        if (odp || implicitOdp) {
            throw bad("-o/--odp, -O/--iodp: The device isn't ODP capable or does not support RC send and receive with ODP: "
                    + "jrxe registers memory up front (pinned), it has no on-demand paging");
        }
        if (timestamps) {
            throw bad("-t/--ts: The device isn't completion timestamp capable: jrxe's completions carry no timestamp");
        }
        if (deviceMemory) {
            throw bad("-j/--dm: Device doesn't support dm allocation: jrxe has no device memory");
        }
    }

    @Override
    Session open(LocalDevice dev, int timeoutMillis) {
        return new RcSession(dev, timeoutMillis);
    }

    private final class RcSession extends Session {
        RcSession(LocalDevice dev, int timeoutMillis) {
            super(new SessionResources(dev, size, Access.LOCAL_WRITE, rxDepth + 1, events, timeoutMillis), QpType.RC, rxDepth,
                    new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(ibPort.number()).accessFlags(0));
            recv.wrId = RECV_WRID;
            recv.sgl.add(r.buf.address(), size, r.mr.lkey());
            send.wrId = SEND_WRID;
            send.opcode = WrOpcode.SEND;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(r.buf.address(), size, r.mr.lkey());
        }

        @Override
        void connect(PingpongDest remote, int myPsn, int sgidIndex) throws VerbsException {
            if (!Gids.hasInterfaceId(remote.gid())) {
                throw new VerbsException(io.jrxe.verbs.Errno.EINVAL, "the peer sent no GID (run it with -g "
                        + "GID_INDEX): on RoCE every packet needs a GRH, so a QP cannot be connected by LID alone");
            }
            // ibv_rc_pingpong's RTR and RTS attributes; it sends with hop limit 1.
            qp.modify(new QpAttributes().state(QpState.RTR)
                    .av(new AddressVector(remote.gid(), sgidIndex, 1, 0, 0, sl, ibPort.number()))
                    .pathMtu(Mtu.ofBytes(mtu)).destQpn(remote.qpn()).rqPsn(remote.psn())
                    .maxDestRdAtomic(1).minRnrTimer(12));
            qp.modify(new QpAttributes().state(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).sqPsn(myPsn).maxRdAtomic(1));
        }

        @Override
        void postSend(PingpongDest remote) throws VerbsException {
            qp.postSend(send);
        }

        @Override
        void fillPattern() {
            fill(r.buf, 0, size);
        }

        @Override
        List<Integer> invalidPages() {
            return check(r.buf, 0, size);
        }

        @Override
        public void close() {
            try {
                qp.close();
            } catch (VerbsException e) {
                // the device is removed next, with everything it holds
            }
            r.close();
        }
    }

    /**
     * The client's pattern: ibv_rc_pingpong leaves its 0x7b fill and writes the first byte of every page
     * (with the value {@code i / page_size % sizeof(char)}, which is 0).
     */
    static void fill(java.lang.foreign.MemorySegment buf, long offset, int size) {
        for (int i = 0; i < size; i += PAGE_SIZE) {
            buf.set(ValueLayout.JAVA_BYTE, offset + i, (byte) 0);
        }
    }

    /**
     * The pages that do not hold the client's pattern. ibv_rc_pingpong checks the first byte of each page;
     * jrxe checks every byte, which the real client's message passes too.
     */
    static List<Integer> check(java.lang.foreign.MemorySegment buf, long offset, int size) {
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
