package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.GidType;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.cm.DatagramParameters;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * One of udaddy's UD "connections" (struct cmatest_node): its identifier, a PD, one CQ, a UD QP that signals only
 * what it is told to, one buffer of a GRH and a message, and where its peer is: an address handle, a QP number and
 * a Q_Key, from the SIDR reply on the client, from the first datagram on the server.
 */
final class UdaddyNode extends CmTestNode {
    /** The GRH area in front of every UD receive. */
    static final int GRH = 40;

    Cq cq;
    Ah ah;
    int remoteQpn;
    int remoteQkey;

    UdaddyNode(int index) {
        super(index);
    }

    /** init_node: PD, a CQ of 2 × -C entries, the UD QP, the buffer of a GRH and a message. */
    void init(int count, int size) throws VerbsException {
        pd = id.context().allocPd();
        cq = id.context().createCq(count > 0 ? count * 2 : 2, null);
        int wr = count > 0 ? count : 1;
        id.createQp(pd, new QpInitAttributes(QpType.UD, cq, cq, null, new QpCapabilities(wr, wr, 1, 1, 0), false));
        if (count > 0 && size > 0) {
            allocate(size + GRH);
        }
    }

    /** post_sends: SEND_WITH_IMM datagrams whose immediate data is this QP's number, so that the peer can answer. */
    void postSends(int count, int size, boolean signaled) throws VerbsException {
        if (!connected || count == 0) {
            return;
        }
        SendWr send = new SendWr(1);
        send.wrId = index;
        send.opcode = WrOpcode.SEND_WITH_IMM;
        send.flags = signaled ? SendWr.SIGNALED : 0;
        send.immData = id.qp().qpNum();
        send.ahHandle = ah.handle();
        send.remoteQpn = remoteQpn;
        send.remoteQkey = remoteQkey;
        send.sgl.add(mem.address(), size, mr.lkey());
        for (int i = 0; i < count; i++) {
            id.qp().postSend(send);
        }
    }

    /** resolved_handler: the SIDR reply said where the service's QP is. */
    void resolved(DatagramParameters where) throws VerbsException {
        remoteQpn = where.qpNumber();
        remoteQkey = where.qkey();
        ah = pd.createAh(where.address());
    }

    /**
     * create_reply_ah: an address handle back to the sender of the datagram whose GRH is in the buffer
     * (ibv_create_ah_from_wc), the sender's QP from its immediate data, and this QP's own Q_Key.
     */
    void replyTo(int immData) throws VerbsException {
        byte[] grh = mem.asSlice(0, GRH).toArray(ValueLayout.JAVA_BYTE);
        byte[] source = new byte[16];
        byte[] destination = new byte[16];
        if ((grh[0] & 0xF0) == 0x60) { // an IPv6 header
            System.arraycopy(grh, 8, source, 0, 16);
            System.arraycopy(grh, 24, destination, 0, 16);
        } else { // an IPv4 header in the last 20 bytes: IPv4-mapped GIDs
            source[10] = destination[10] = (byte) 0xFF;
            source[11] = destination[11] = (byte) 0xFF;
            System.arraycopy(grh, 32, source, 12, 4);
            System.arraycopy(grh, 36, destination, 12, 4);
        }
        ah = pd.createAh(AddressVector.to(source, gidIndexOf(id.context(), id.portNum(), destination)));
        remoteQpn = immData;
        remoteQkey = id.qp().query().qkey();
    }

    /** The index of the port's RoCE v2 GID {@code gid} (the address the datagram came to), as ibv_find_gid_index. */
    private static int gidIndexOf(Context ctx, int port, byte[] gid) throws VerbsException {
        for (GidEntry e : ctx.gidTable(port)) {
            if (e.type() == GidType.ROCE_V2 && Arrays.equals(e.gid(), gid)) {
                return e.index();
            }
        }
        throw new VerbsException(io.jrxe.verbs.Errno.ENOENT, "no RoCE v2 GID of this port is the datagram's destination");
    }

    @Override
    void closeQueues() {
        Quietly.close(ah);
        Quietly.close(cq);
    }
}
