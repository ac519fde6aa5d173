package io.jrxe.tools.perftest;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.rnic.queue.SendWqe;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.WcStatusText;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a perftest run makes on the device: the buffer, MR, CQs (with completion channels for -e) and QPs,
 * the work requests the tests post, and the QPs' addresses for the handshake.
 *
 * <p>Memory as perftest lays it out: per QP one area to send from (area i) and one the peer writes into or
 * reads from (area qps + i, whose address the key message carries), each max(size, page) bytes.
 */
final class PerftestResources implements AutoCloseable {
    private final PerftestCommand.Settings s;
    private final LocalDevice dev;
    private final GidEntry gid;
    private final Arena arena = Arena.ofShared();
    private final long areaSize;
    private Pd pd;
    MemorySegment buf;
    private Mr mr;
    CompChannel sendChannel;
    CompChannel recvChannel;
    Cq sendCq;
    Cq recvCq;
    final List<Qp> qps = new ArrayList<>();
    /** This side's QPs as the handshake sends them, and the peer's, as they arrive. */
    PerftestDest[] mine;
    PerftestDest[] remote;
    /** Where the tests poll completions to. */
    final WorkCompletion[] wcs = new WorkCompletion[16];

    /** Runs a jrxe NIC that this program's thread drives, while a loop polls memory (see LocalDevice#progress). */
    int progress() {
        return dev.progress();
    }

    PerftestResources(PerftestCommand.Settings s, LocalDevice dev, GidEntry gid) {
        this.s = s;
        this.dev = dev;
        this.gid = gid;
        this.areaSize = Math.max(s.maxSize, s.cycleBuffer);
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /** Makes it all; what was made before a failure goes in {@link #close}. */
    void allocate() throws VerbsException {
        pd = dev.context().allocPd();
        long bytes = 2L * s.qps * areaSize;
        buf = arena.allocate(bytes, s.cycleBuffer);
        mr = pd.regMr(buf, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC);
        if (s.events) {
            sendChannel = dev.context().createCompChannel();
            recvChannel = dev.context().createCompChannel();
        }
        sendCq = dev.context().createCq(Math.max(16, s.txDepth * s.qps), sendChannel);
        recvCq = dev.context().createCq(Math.max(16, s.rxDepth * s.qps), recvChannel);
        mine = new PerftestDest[s.qps];
        remote = new PerftestDest[s.qps];
        for (int i = 0; i < s.qps; i++) {
            Qp qp = pd.createQp(new QpInitAttributes(QpType.RC, sendCq, recvCq, null,
                    new QpCapabilities(s.txDepth, Math.max(1, s.rxDepth), 1, 1, 0), false));
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(s.ibPort)
                    .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
            qps.add(qp);
            mine[i] = new PerftestDest(0, s.outReads, qp.qpNum(), ThreadLocalRandom.current().nextInt() & 0xFFFFFF, mr.rkey(),
                    buf.address() + (s.qps + i) * areaSize, gid.gid(), 0);
        }
    }

    /** ctx_connect for RC: RTR towards the peer's QP (hop limit 255, as perftest), then RTS. */
    void connect(Qp qp, PerftestDest me, PerftestDest peer) throws VerbsException {
        qp.modify(new QpAttributes().state(QpState.RTR)
                .av(new AddressVector(peer.gid(), s.gidIndex, 0xFF, 0, 0, s.sl, s.ibPort))
                .pathMtu(s.mtu).destQpn(peer.qpn()).rqPsn(peer.psn())
                .maxDestRdAtomic(me.outReads()).minRnrTimer(12));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(me.psn()).timeout(s.qpTimeout).retryCnt(7).rnrRetry(7)
                .maxRdAtomic(Math.max(1, Math.min(peer.outReads(), dev.context().queryDevice().maxQpRdAtom()))));
    }

    long localArea(int qp) {
        return buf.address() + qp * areaSize;
    }

    long remoteArea(int qp) {
        return buf.address() + (s.qps + qp) * areaSize;
    }

    long offsetOf(long address) {
        return address - buf.address();
    }

    SendWr sendWr(int qp, long size) {
        SendWr wr = new SendWr(1);
        wr.wrId = qp;
        wr.opcode = switch (s.verb) {
            case SEND -> WrOpcode.SEND;
            case WRITE -> WrOpcode.RDMA_WRITE;
            case READ -> WrOpcode.RDMA_READ;
            case ATOMIC -> "CMP_AND_SWAP".equals(s.atomicType) ? WrOpcode.ATOMIC_CMP_AND_SWP : WrOpcode.ATOMIC_FETCH_AND_ADD;
        };
        wr.sgl.add(localArea(qp), (int) size, mr.lkey());
        wr.remoteAddr = remote[qp].vaddr();
        wr.rkey = remote[qp].rkey();
        wr.compareAdd = 1;
        wr.swap = 1;
        wr.flags = SendWr.SIGNALED;
        return wr;
    }

    void postReceives(long size, int perQp) throws VerbsException {
        for (int q = 0; q < s.qps; q++) {
            RecvWr r = recvWr(q, size);
            for (int i = 0; i < perQp; i++) {
                qps.get(q).postRecv(r);
            }
        }
    }

    RecvWr recvWr(int q, long size) {
        RecvWr r = new RecvWr(1);
        r.wrId = q;
        r.sgl.add(remoteArea(q), (int) size, mr.lkey());
        return r;
    }

    /** A completion with an error ends the test, with perftest's words and the counts so far. */
    static void check(WorkCompletion c, String what, long scnt, long ccnt) {
        if (c.status() != WcStatus.SUCCESS) {
            throw new UserError(String.format(Locale.ROOT, "Completion with error at %s: status %s (%d, %s), vendor error %d "
                    + "(after %d posted, %d completed)", what, c.status(), c.status().verbsValue(), WcStatusText.of(c.status()),
                    c.vendorErr(), scnt, ccnt));
        }
    }

    @Override
    public void close() {
        for (Qp qp : qps) {
            try {
                qp.close();
            } catch (VerbsException e) {
                // the device goes next with all it holds
            }
        }
        if (mr != null) {
            try {
                mr.close();
            } catch (VerbsException e) {
                // as above; the memory must outlive the registration (a kernel device pins its pages)
            }
        }
        arena.close();
    }
}
