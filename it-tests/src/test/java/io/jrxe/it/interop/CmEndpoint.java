package io.jrxe.it.interop;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.cm.CmId;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * One side of a connection the native CM makes: a PD, a CQ and a QP (RC, or UD for the UDP port
 * space) on the identifier's device (rdma_create_qp), and one buffer registered for local and
 * remote access, posted to by offset.
 * Completions are awaited by opcode, so that a SEND's and a RECV's may come in either order.
 */
final class CmEndpoint implements AutoCloseable {
    private static final long COMPLETION_TIMEOUT_NANOS = 20_000_000_000L;

    final CmId id;
    final Context context;
    final MemorySegment memory;
    final Mr mr;
    private final Pd pd;
    private final Cq cq;
    private final Qp qp;
    private final List<WorkCompletion> early = new ArrayList<>();
    private int flushed;

    private CmEndpoint(CmId id, Context context, Pd pd, Cq cq, Qp qp, MemorySegment memory, Mr mr) {
        this.id = id;
        this.context = context;
        this.pd = pd;
        this.cq = cq;
        this.qp = qp;
        this.memory = memory;
        this.mr = mr;
    }

    /** The resources with an RC QP on {@code id}, whose address is bound or resolved (so it has a device). */
    static CmEndpoint on(CmId id, int bufferBytes, Arena arena) throws VerbsException {
        return on(id, bufferBytes, arena, QpType.RC);
    }

    static CmEndpoint on(CmId id, int bufferBytes, Arena arena, QpType type) throws VerbsException {
        Context context = id.context();
        if (context == null) {
            throw new AssertionError(id + " has no device: was its address resolved?");
        }
        Pd pd = context.allocPd();
        Cq cq = context.createCq(64, null);
        Qp qp = id.createQp(pd, new QpInitAttributes(type, cq, cq, null, new QpCapabilities(16, 4, 1, 1, 0), false));
        MemorySegment memory = arena.allocate(bufferBytes, 4096);
        Mr mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE);
        return new CmEndpoint(id, context, pd, cq, qp, memory, mr);
    }

    Qp qp() {
        return qp;
    }

    void postRecv(long wrId, long offset, int length) throws VerbsException {
        RecvWr r = new RecvWr(1);
        r.wrId = wrId;
        r.sgl.add(memory.address() + offset, length, mr.lkey());
        qp.postRecv(r);
    }

    /** A signaled SEND, or with a remote address and key an RDMA READ or WRITE. */
    void post(WrOpcode op, long wrId, long offset, int length, long remoteAddr, int rkey) throws VerbsException {
        SendWr w = new SendWr(1);
        w.wrId = wrId;
        w.opcode = op;
        w.flags = SendWr.SIGNALED;
        w.sgl.add(memory.address() + offset, length, mr.lkey());
        w.remoteAddr = remoteAddr;
        w.rkey = rkey;
        qp.postSend(w);
    }

    /** A UD SEND to {@code qpn} through {@code ah}, with {@code qkey}. */
    void postDatagram(long wrId, long offset, int length, Ah ah, int qpn, int qkey) throws VerbsException {
        SendWr w = new SendWr(1);
        w.wrId = wrId;
        w.flags = SendWr.SIGNALED;
        w.sgl.add(memory.address() + offset, length, mr.lkey());
        w.ahHandle = ah.handle();
        w.remoteQpn = qpn;
        w.remoteQkey = qkey;
        qp.postSend(w);
    }

    /** An address handle in this endpoint's PD. */
    Ah createAh(AddressVector av) throws VerbsException {
        return pd.createAh(av);
    }

    /** The next successful completion of {@code opcode}; one of another opcode is kept for its own wait. */
    WorkCompletion await(WcOpcode opcode) {
        long deadline = System.nanoTime() + COMPLETION_TIMEOUT_NANOS;
        while (true) {
            WorkCompletion found = poll(opcode);
            if (found != null) {
                return found;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no " + opcode + " completion within 20 s");
            }
            Thread.onSpinWait();
        }
    }

    /**
     * A successful completion of {@code opcode} already there, or null: does not wait. Flushed work requests
     * (WR_FLUSH_ERR, when a disconnect moves the QP to ERR) are counted and passed over, as rping does.
     */
    WorkCompletion poll(WcOpcode opcode) {
        WorkCompletion[] wc = {new WorkCompletion()};
        while (cq.poll(wc) == 1) {
            if (wc[0].status() == WcStatus.WR_FLUSH_ERR) {
                flushed++;
            } else if (wc[0].status() != WcStatus.SUCCESS) {
                throw new AssertionError("completion in error while waiting for " + opcode + ": " + wc[0]);
            } else {
                early.add(wc[0]);
                wc[0] = new WorkCompletion();
            }
        }
        return take(opcode);
    }

    /** How many flushed completions were passed over. */
    int flushed() {
        return flushed;
    }

    private WorkCompletion take(WcOpcode opcode) {
        for (int i = 0; i < early.size(); i++) {
            if (early.get(i).opcode() == opcode) {
                return early.remove(i);
            }
        }
        return null;
    }

    /** rdma_destroy_qp, then the MR, CQ and PD; the identifier stays for its owner to destroy. */
    @Override
    public void close() throws VerbsException {
        id.destroyQp();
        mr.close();
        cq.close();
        pd.close();
    }
}
