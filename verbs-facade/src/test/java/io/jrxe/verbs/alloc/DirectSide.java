package io.jrxe.verbs.alloc;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.emulated.EmulatedDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

/** One end of a connected RC QP pair over a {@link DirectLink}: context, PD, CQ, QP and 128 KiB of registered memory. */
final class DirectSide {
    final Context ctx;
    final Pd pd;
    final Cq cq;
    final Qp qp;
    final MemorySegment memory;
    final Mr mr;

    DirectSide(EmulatedDevice d, Arena arena) throws Exception {
        ctx = d.open();
        pd = ctx.allocPd();
        cq = ctx.createCq(1024, null);
        qp = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(64, 64, 1, 1, 0), false));
        memory = arena.allocate(1 << 17, 4096);
        mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
    }

    void connect(DirectSide peer, InetAddress peerAddress) throws Exception {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ));
        qp.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(GidEntry.gidOf(peerAddress), 1))
                .pathMtu(Mtu.MTU_4096).destQpn(peer.qp.qpNum()).rqPsn(0).maxDestRdAtomic(1).minRnrTimer(1));
        qp.modify(new QpAttributes().state(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).sqPsn(0).maxRdAtomic(1));
    }
}
