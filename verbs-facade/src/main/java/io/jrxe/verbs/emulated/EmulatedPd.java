package io.jrxe.verbs.emulated;

import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mw;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.MemorySegment;

final class EmulatedPd implements Pd, OwnedByContext {
    private final EmulatedDevice device;
    private final NicResources rnic;
    private final ProtectionDomain pd;
    private final CloseOnce closing = new CloseOnce();
    /** The QPs, SRQs, AHs, memory windows and MRs made on this PD. */
    private final OwnedObjects children = new OwnedObjects();

    EmulatedPd(EmulatedDevice device, ProtectionDomain pd) {
        this.device = device;
        this.rnic = device.rnic();
        this.pd = pd;
    }

    ProtectionDomain pd() {
        return pd;
    }

    EmulatedDevice device() {
        return device;
    }

    @Override
    public Mr regMr(MemorySegment memory, long iova, int access) throws VerbsException {
        return adopt(new EmulatedMr(device, Commands.call(rnic, () -> rnic.memory().registerMr(pd, memory, iova, access))));
    }

    @Override
    public Mr regMrImplicit(int access) throws VerbsException {
        return adopt(new EmulatedMr(device, Commands.call(rnic, () -> rnic.memory().registerImplicitMr(pd, access))));
    }

    @Override
    public Mw allocMw(int type) throws VerbsException {
        return adopt(new EmulatedMw(device, Commands.call(rnic, () -> rnic.memory().allocateMw(pd, type))));
    }

    @Override
    public Qp createQp(QpInitAttributes init) throws VerbsException {
        EmulatedCq send = Commands.own(init.sendCq(), EmulatedCq.class, "send CQ");
        EmulatedCq recv = Commands.own(init.recvCq(), EmulatedCq.class, "receive CQ");
        EmulatedSrq srq = init.srq() == null ? null : Commands.own(init.srq(), EmulatedSrq.class, "SRQ");
        EmulatedQp qp = adopt(new EmulatedQp(device, Commands.call(rnic, () -> device.nic().createQp(pd, init.type(), send.cq(),
                recv.cq(), srq == null ? null : srq.srq(), init.caps(), init.sqSigAll()))));
        qp.publish();
        return qp;
    }

    @Override
    public Srq createSrq(int maxWr, int maxSge) throws VerbsException {
        return adopt(new EmulatedSrq(device, Commands.call(rnic, () -> rnic.createSrq(pd, maxWr, maxSge))));
    }

    @Override
    public Ah createAh(AddressVector av) throws VerbsException {
        return adopt(new EmulatedAh(device, Commands.call(rnic, () -> rnic.createAh(pd, av))));
    }

    @Override
    public boolean isClosed() {
        return closing.isClosed();
    }

    /** Closes what was made on this PD and is still open, QPs first (they use the rest), then the PD. */
    void closeWithChildren() throws VerbsException {
        for (Class<?> kind : new Class<?>[] {EmulatedQp.class, EmulatedSrq.class, EmulatedAh.class, EmulatedMw.class,
            EmulatedMr.class}) {
            for (OwnedByContext child : children.all()) {
                if (kind.isInstance(child) && !child.isClosed()) {
                    child.close();
                }
            }
        }
        children.clear();
        close();
    }

    private <T extends OwnedByContext> T adopt(T child) {
        return children.adopt(child);
    }

    @Override
    public void close() throws VerbsException {
        closing.close(device, rnic, () -> rnic.deallocatePd(pd));
    }

    @Override
    public String toString() {
        return pd.toString();
    }
}
