package io.jrxe.tools.perfquery;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.Resources;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.pma.PerfMgmt;
import io.jrxe.wire.pma.PmaAttribute;
import io.jrxe.wire.pma.PortCountersFlyweight;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Asks a PerfMgmt agent from a UD QP of the program's own rather than from the device's QP1: what a kernel device
 * leaves a program (its QP1 belongs to the kernel). The QP takes the GSI Q_Key 0x80010000, which a kernel gives only
 * to a process allowed raw network access (CAP_NET_RAW: root), and sends each Get to QP 1 of the target; the agent
 * answers the QP the Get came from (the Get's DETH source QP), so the GetResp arrives on this one.
 */
final class UdQpPmaClient implements AutoCloseable {
    /** A receive holds the 40-byte GRH area, then the MAD. */
    private static final int GRH = 40;
    private static final int RECEIVE = GRH + MadHeaderFlyweight.MAD_LENGTH;
    private static final int SEND_AT = 512;

    private final Arena arena = Arena.ofShared();
    private final MemorySegment buffer;
    private final Pd pd;
    private final Cq cq;
    private final Qp qp;
    private final Mr mr;
    private final Ah ah;
    private final MadHeaderFlyweight header = new MadHeaderFlyweight();
    private final PortCountersFlyweight request = new PortCountersFlyweight();
    private final WorkCompletion[] wc = {new WorkCompletion()};
    private long wrIds;

    UdQpPmaClient(LocalDevice dev, int port, GidEntry from, byte[] targetGid) {
        Pd p = null;
        Cq c = null;
        Qp q = null;
        Mr m = null;
        Ah a = null;
        try {
            buffer = arena.allocate(SEND_AT + MadHeaderFlyweight.MAD_LENGTH, 4096);
            p = dev.context().allocPd();
            c = dev.context().createCq(4, null);
            q = p.createQp(new QpInitAttributes(QpType.UD, c, c, null, new QpCapabilities(1, 1, 1, 1, 0), false));
            m = p.regMr(buffer, Access.LOCAL_WRITE);
            QpConnect.datagram(MadHeaderFlyweight.GSI_QKEY).port(port).apply(q);
            a = p.createAh(new AddressVector(targetGid, from.index(), 64, 0, 0, 0, port));
        } catch (VerbsException e) {
            Resources.closeQuietly(a, q, m, c, p);
            arena.close();
            throw new UserError("cannot set up a UD QP with the GSI Q_Key on " + dev.name() + ": " + e.getMessage()
                    + ("native".equals(dev.provider()) ? " (a kernel gives the Q_Key 0x80010000 only to root)" : ""), e);
        }
        pd = p;
        cq = c;
        qp = q;
        mr = m;
        ah = a;
    }

    /**
     * Sends a Get of {@code attribute} for {@code portSelect} with transaction ID {@code tid} and waits up to
     * {@code timeoutMillis} for the GetResp with that ID, or one with a blank header (Linux 7.2's rxe answers so).
     *
     * @return the answer's 256 bytes, or null when none came in time
     */
    ByteBuffer ask(PmaAttribute attribute, int portSelect, long tid, long timeoutMillis) throws VerbsException {
        RecvWr r = new RecvWr(1);
        r.wrId = ++wrIds;
        r.sgl.add(buffer.address(), RECEIVE, mr.lkey());
        qp.postRecv(r);
        ByteBuffer out = buffer.asSlice(SEND_AT, MadHeaderFlyweight.MAD_LENGTH).asByteBuffer();
        out.put(0, new byte[MadHeaderFlyweight.MAD_LENGTH]);
        header.wrap(out, 0).baseVersion(MadHeaderFlyweight.BASE_VERSION).managementClass(PerfMgmt.MGMT_CLASS)
                .classVersion(PerfMgmt.CLASS_VERSION).method(MadHeaderFlyweight.METHOD_GET).transactionId(tid)
                .attributeId(attribute.id());
        request.wrap(out, PerfMgmt.DATA_OFFSET).setSaturated(PortCountersFlyweight.PORT_SELECT, portSelect);
        SendWr s = new SendWr(1);
        s.wrId = ++wrIds;
        s.opcode = WrOpcode.SEND;
        s.flags = SendWr.SIGNALED;
        s.sgl.add(buffer.address() + SEND_AT, MadHeaderFlyweight.MAD_LENGTH, mr.lkey());
        s.ahHandle = ah.handle();
        s.remoteQpn = MadHeaderFlyweight.GSI_QPN;
        s.remoteQkey = MadHeaderFlyweight.GSI_QKEY;
        qp.postSend(s);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (long left = timeoutMillis; left > 0; left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) {
            int n;
            try {
                n = cq.poll(wc, left, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UserError("interrupted while waiting for an answer", e);
            }
            if (n == 0) {
                continue;
            }
            if (wc[0].status() != WcStatus.SUCCESS) {
                throw new UserError((wc[0].wrId() == s.wrId ? "the Get" : "the receive for the answer") + " completed with "
                        + wc[0].status());
            }
            if (wc[0].wrId() == r.wrId) {
                ByteBuffer answer = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
                answer.put(0, buffer.asSlice(GRH, MadHeaderFlyweight.MAD_LENGTH).asByteBuffer(), 0,
                        MadHeaderFlyweight.MAD_LENGTH);
                MadHeaderFlyweight h = header.wrap(answer, 0);
                if (h.isBlank() || h.transactionId() == tid) {
                    return answer;
                }
                qp.postRecv(r); // someone else's answer: wait on for ours
            }
        }
        return null;
    }

    @Override
    public void close() {
        Resources.closeQuietly(ah, qp, mr, cq, pd);
        arena.close();
    }
}
