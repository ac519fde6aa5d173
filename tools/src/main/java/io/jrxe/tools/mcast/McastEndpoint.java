package io.jrxe.tools.mcast;

import io.jrxe.verbs.QpConnect;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.Resources;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One UD QP in RTS with its PD, a send and a receive CQ, a buffer of receive slots and a send slot, and the address
 * handle of the group: what `jrxe mcast` sends and receives with, on whichever device -d chose. Closing detaches
 * the QP first (a QP still attached cannot be destroyed), then releases the rest, the memory last.
 */
final class McastEndpoint implements AutoCloseable {
    /** A receive slot holds the 40-byte GRH area and a datagram of the port's MTU. */
    static final int GRH = 40;
    static final int RECEIVE_SLOTS = 32;

    final Arena arena = Arena.ofShared();
    final int slot;
    final MemorySegment buf;
    final Pd pd;
    final Cq sendCq;
    final Cq recvCq;
    final Qp qp;
    final Mr mr;
    private final byte[] gid;
    private Ah ah;
    private boolean attached;

    McastEndpoint(LocalDevice dev, int mtu, int qkey, byte[] groupGid) {
        this.slot = GRH + mtu;
        this.gid = groupGid.clone();
        Pd p = null;
        Cq s = null;
        Cq r = null;
        Qp q = null;
        Mr m = null;
        try {
            buf = arena.allocate((long) slot * (RECEIVE_SLOTS + 1), 4096);
            p = dev.context().allocPd();
            s = dev.context().createCq(RECEIVE_SLOTS, null);
            r = dev.context().createCq(RECEIVE_SLOTS, null);
            q = p.createQp(new QpInitAttributes(QpType.UD, s, r, null, new QpCapabilities(RECEIVE_SLOTS, RECEIVE_SLOTS, 1, 1, 0),
                    false));
            m = p.regMr(buf, Access.LOCAL_WRITE);
            QpConnect.datagram(qkey).apply(q);
        } catch (VerbsException e) {
            Resources.closeQuietly(q, m, r, s, p);
            arena.close();
            throw new UserError("cannot set up a UD QP on " + dev.name() + ": " + e.getMessage(), e);
        }
        pd = p;
        sendCq = s;
        recvCq = r;
        qp = q;
        mr = m;
    }

    /** ibv_attach_mcast of the QP to the group. */
    void attach() throws VerbsException {
        qp.attachMcast(gid, 0);
        attached = true;
    }

    /** Posts receive slot {@code index} (0 to RECEIVE_SLOTS - 1); its work request id is the index. */
    void postReceive(int index) throws VerbsException {
        RecvWr r = new RecvWr(1);
        r.wrId = index;
        r.sgl.add(buf.address() + (long) index * slot, slot, mr.lkey());
        qp.postRecv(r);
    }

    /** Where receive slot {@code index} starts (its GRH area, then the datagram). */
    long slotOffset(int index) {
        return (long) index * slot;
    }

    /** Sends the send slot's first {@code length} bytes to the group: QP 0xFFFFFF, the Q_Key given. */
    void send(long wrId, int length, int qkey, int sgidIndex, int hopLimit) throws VerbsException {
        if (ah == null) {
            ah = pd.createAh(new AddressVector(gid, sgidIndex, hopLimit, 0, 0, 0, 1));
        }
        SendWr w = new SendWr(1);
        w.wrId = wrId;
        w.opcode = WrOpcode.SEND;
        w.flags = SendWr.SIGNALED;
        w.sgl.add(buf.address() + (long) RECEIVE_SLOTS * slot, length, mr.lkey());
        w.ahHandle = ah.handle();
        w.remoteQpn = MulticastGid.QPN;
        w.remoteQkey = qkey;
        qp.postSend(w);
    }

    /** The send slot, where the next datagram is written. */
    MemorySegment sendSlot() {
        return buf.asSlice((long) RECEIVE_SLOTS * slot, slot);
    }

    @Override
    public void close() {
        if (attached) {
            try {
                qp.detachMcast(gid, 0);
            } catch (VerbsException e) {
                // the QP is destroyed next; a device that refuses that too releases it when the command's context closes
            }
        }
        Resources.closeQuietly(ah, qp, mr, recvCq, sendCq, pd);
        arena.close();
    }
}
