package io.jrxe.tools.demo;

import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.EmulatedExtension;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** One of the demo's two NICs: its context, PD, CQ, RC QP and one registered buffer. */
final class DemoSide {
    static final int BUFFER = 64 * 1024;

    final String name;
    final EmulatedDevice device;
    final Context ctx;
    final Pd pd;
    final Cq cq;
    final Qp qp;
    final MemorySegment memory;
    final Mr mr;
    private final WorkCompletion[] wc = {new WorkCompletion()};

    DemoSide(String name, EmulatedDevice device, Arena arena) throws VerbsException {
        this.name = name;
        this.device = device;
        this.ctx = device.open();
        this.pd = ctx.allocPd();
        this.cq = ctx.createCq(64, null);
        this.qp = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(16, 16, 2, 2, 64), false));
        this.memory = arena.allocate(BUFFER, 4096);
        this.mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC);
    }

    /** RESET -> INIT -> RTR -> RTS towards the peer, with the attributes ibv_rc_pingpong uses. */
    void connectTo(DemoSide peer, int myPsn, int peerPsn) throws VerbsException {
        QpConnect.to(new QpPeer(peer.qp.qpNum(), peerPsn, peer.ctx.queryGid(1, 1).gid())).localPsn(myPsn)
                .pathMtu(ctx.queryPort(1).activeMtu()).apply(qp);
    }

    /** The next completion, or null when none came within the timeout. */
    WorkCompletion await(long timeoutNanos) {
        long start = System.nanoTime();
        BackoffIdle idle = new BackoffIdle();
        for (int looks = 1; !idle.idle(looks, start, timeoutNanos); looks++) {
            if (cq.poll(wc) == 1) {
                return new WorkCompletion(wc[0]);
            }
        }
        return null;
    }

    /** A completion of this side's, with what its vendor_err means on a jrxe NIC. */
    String describe(WorkCompletion completion) {
        return EmulatedExtension.of(device).orElseThrow().describe(completion);
    }
}
