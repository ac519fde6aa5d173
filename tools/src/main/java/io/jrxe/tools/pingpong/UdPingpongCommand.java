package io.jrxe.tools.pingpong;

import io.jrxe.tools.BadOption;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.tools.common.Gids;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.VerbsException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

/** `jrxe ud-pingpong`: ibv_ud_pingpong on a jrxe NIC or a kernel device, its options, output and TCP exchange. */
@Command(name = "ud-pingpong", mixinStandardHelpOptions = true,
        description = "ibv_ud_pingpong on a jrxe NIC or a kernel device (-d): a UD QP sends a datagram, the peer echoes it, ITERS times; "
                + "then the bandwidth and the time per exchange. Without SERVERNAME it is the server.")
public final class UdPingpongCommand extends PingpongBase {
    /** The Q_Key both sides use, as ibv_ud_pingpong. */
    static final int QKEY = 0x11111111;
    /** A UD receive buffer starts with the 40 bytes of the GRH. */
    static final int GRH = 40;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", defaultValue = "1024",
            description = "size of message to exchange, at most the port's active MTU (default: ${DEFAULT-VALUE}, as "
                    + "rdma-core since its default was made to fit the default MTU)")
    int size;

    @Override
    int size() {
        return size;
    }

    @Override
    String localGidSeparator() {
        return ":";
    }

    @Override
    Session open(LocalDevice dev, int timeoutMillis) {
        int mtu = dev.port(ibPort.number()).activeMtu().bytes();
        if (size > mtu) {
            throw new BadOption("-s/--size " + size + ": Requested size larger than port MTU (" + mtu + ")");
        }
        return new UdSession(dev, timeoutMillis);
    }

    private final class UdSession extends Session {
        private Ah ah;

        UdSession(LocalDevice dev, int timeoutMillis) {
            super(new SessionResources(dev, size + GRH, Access.LOCAL_WRITE, rxDepth + 1, events, timeoutMillis), QpType.UD, rxDepth,
                    new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(ibPort.number()).qkey(QKEY));
            recv.wrId = RECV_WRID;
            recv.sgl.add(r.buf.address(), size + GRH, r.mr.lkey());
            send.wrId = SEND_WRID;
            send.opcode = WrOpcode.SEND;
            send.flags = SendWr.SIGNALED;
            send.sgl.add(r.buf.address() + GRH, size, r.mr.lkey());
            send.remoteQkey = QKEY;
        }

        @Override
        void connect(int index, PingpongDest remote, int myPsn, int sgidIndex) throws VerbsException {
            qp(index).modify(new QpAttributes().state(QpState.RTR));
            qp(index).modify(new QpAttributes().state(QpState.RTS).sqPsn(myPsn));
            if (!Gids.hasInterfaceId(remote.gid())) {
                throw new VerbsException(io.jrxe.verbs.Errno.EINVAL, "the peer sent no GID (run it with -g "
                        + "GID_INDEX): on RoCE every packet needs a GRH, so an address handle needs the peer's GID");
            }
            // ibv_ud_pingpong's address handle: hop limit 64.
            ah = r.pd.createAh(new AddressVector(remote.gid(), sgidIndex, 64, 0, 0, sl, ibPort.number()));
            send.ahHandle = ah.handle();
            send.remoteQpn = remote.qpn();
        }

        @Override
        void fillPattern() {
            ConnectedPingpong.fill(r.buf, GRH, size);
        }

        @Override
        List<Integer> invalidPages() {
            return ConnectedPingpong.check(r.buf, GRH, size);
        }

        @Override
        void closeMore() throws VerbsException {
            if (ah != null) {
                ah.close();
            }
        }
    }
}
