package io.jrxe.tools.conformance;

import io.jrxe.tools.rcops.RcOpsDest;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static io.jrxe.tools.conformance.TargetLayout.*;

/**
 * One conformance case's target: a fresh RC QP with its CQ, the buffer laid out as {@link TargetLayout} says (the
 * READ area filled, the atomic cells set, {@link TargetLayout#RECEIVES} receives posted), the main region and the
 * restricted ones registered, a dead key, and on request a type 1 memory window. Made on any device (a jrxe NIC in
 * this process, or `jrxe rc-ops --many` on a kernel device); closing releases the QP before the memory.
 */
public final class TargetSetup implements AutoCloseable {
    private static final int FULL = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;

    final Arena arena = Arena.ofShared();
    final MemorySegment buf;
    final Pd pd;
    final Cq cq;
    final Qp qp;
    final Mr main;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final TargetKeys keys;

    /** @param withWindow also bind a type 1 memory window (the device must support them) */
    public TargetSetup(Context context, boolean withWindow) throws VerbsException {
        try {
            buf = arena.allocate(BUFFER_BYTES, 4096);
            for (int i = 0; i < READ_BYTES; i++) {
                buf.set(ValueLayout.JAVA_BYTE, READ_AT + i, readPattern(i));
            }
            buf.set(ValueLayout.JAVA_LONG, ATOMIC_AT, ATOMIC_START);
            buf.set(ValueLayout.JAVA_LONG, ATOMIC_AT + 8, ATOMIC_START);
            pd = keep(context.allocPd());
            Pd otherPd = keep(context.allocPd());
            cq = keep(context.createCq(64, null));
            qp = keep(pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(16, 16, 1, 1, 0), false)));
            main = keep(pd.regMr(buf.asSlice(0, MAIN_BYTES), FULL));
            int readOnly = keep(pd.regMr(region(READ_ONLY_AT), Access.REMOTE_READ)).rkey();
            int writeOnly = keep(pd.regMr(region(WRITE_ONLY_AT), Access.LOCAL_WRITE | Access.REMOTE_WRITE)).rkey();
            int noRemote = keep(pd.regMr(region(NO_REMOTE_AT), Access.LOCAL_WRITE)).rkey();
            int otherPdKey = keep(otherPd.regMr(region(OTHER_PD_AT), FULL)).rkey();
            int dead;
            try (Mr gone = pd.regMr(region(DEAD_AT), FULL)) {
                dead = gone.rkey();
            }
            int window = withWindow ? bindWindow() : 0;
            keys = new TargetKeys(readOnly, writeOnly, noRemote, otherPdKey, dead, window);
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                    .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
            for (int i = 0; i < RECEIVES; i++) {
                RecvWr r = new RecvWr(1);
                r.wrId = i + 1;
                r.sgl.add(buf.address() + RECEIVE_AT + (long) i * RECEIVE_BYTES, RECEIVE_BYTES, main.lkey());
                qp.postRecv(r);
            }
        } catch (VerbsException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private MemorySegment region(int at) {
        return buf.asSlice(at, REGION_BYTES);
    }

    private int bindWindow() throws VerbsException {
        Mr bindable = keep(pd.regMr(buf.asSlice(WINDOW_REGION_AT, REGION_BYTES), FULL | Access.MW_BIND));
        Mw mw = keep(pd.allocMw(1));
        return mw.bind(bindable, buf.address() + WINDOW_AT, WINDOW_BYTES, Access.REMOTE_WRITE | Access.REMOTE_READ);
    }

    private <T extends AutoCloseable> T keep(T resource) {
        resources.add(resource);
        return resource;
    }

    /** What this side tells the tester: its QP, its send PSN, its GID, the buffer and the main region's key. */
    public RcOpsDest dest(byte[] gid, int sendPsn, Mtu mtu) {
        return new RcOpsDest(qp.qpNum(), sendPsn, gid, buf.address(), main.rkey(), mtu.bytes());
    }

    public TargetKeys keys() {
        return keys;
    }

    /** RTR towards the tester's QP and GID, expecting its PSN, then RTS with this side's send PSN. */
    public void connect(RcOpsDest tester, int sendPsn, int sgidIndex, int ibPort, Mtu mtu) throws VerbsException {
        qp.modify(new QpAttributes().state(QpState.RTR)
                .av(new AddressVector(tester.gid(), sgidIndex, 64, 0, 0, 0, ibPort))
                .pathMtu(mtu).destQpn(tester.qpn()).rqPsn(tester.psn()).maxDestRdAtomic(RESPONDER_RESOURCES)
                .minRnrTimer(MIN_RNR_TIMER));
        qp.modify(new QpAttributes().state(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).sqPsn(sendPsn)
                .maxRdAtomic(1));
    }

    /** Releases in reverse order of making (QP before memory, windows before their regions), the memory last. */
    @Override
    public void close() {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                // the next resources are released anyway; the device goes with the command
            }
        }
        resources.clear();
        arena.close();
    }
}
