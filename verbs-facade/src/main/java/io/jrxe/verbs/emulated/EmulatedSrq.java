package io.jrxe.verbs.emulated;

import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.queue.SharedReceiveQueue;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;

final class EmulatedSrq implements Srq, OwnedByContext {
    private final EmulatedDevice device;
    private final NicResources rnic;
    private final SharedReceiveQueue srq;
    private final CloseOnce closing = new CloseOnce();

    EmulatedSrq(EmulatedDevice device, SharedReceiveQueue srq) {
        this.device = device;
        this.rnic = device.rnic();
        this.srq = srq;
    }

    @Override
    public void postRecv(io.jrxe.verbs.RecvWr wr) throws VerbsException {
        device.requireOpen();
        try {
            io.jrxe.rnic.engine.WorkPoster.postSrqRecv(srq, wr);
        } catch (io.jrxe.rnic.queue.PostException e) {
            throw Commands.refused(e);
        }
    }

    SharedReceiveQueue srq() {
        return srq;
    }

    @Override
    public int maxWr() {
        return srq.maxWr();
    }

    @Override
    public int maxSge() {
        return srq.maxSge();
    }

    @Override
    public void armLimit(int limit) throws VerbsException {
        Commands.run(rnic, () -> {
            try {
                srq.arm(limit);
            } catch (IllegalArgumentException e) {
                throw RnicException.invalid(e.getMessage());
            }
        });
    }

    @Override
    public boolean isClosed() {
        return closing.isClosed();
    }

    @Override
    public void close() throws VerbsException {
        closing.close(device, rnic, () -> rnic.destroySrq(srq));
    }

    @Override
    public String toString() {
        return srq.toString();
    }
}
