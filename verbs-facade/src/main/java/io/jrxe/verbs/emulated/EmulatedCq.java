package io.jrxe.verbs.emulated;

import io.jrxe.rnic.Rnic;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;

final class EmulatedCq implements Cq {
    private final Rnic rnic;
    private final CompletionQueue cq;

    EmulatedCq(Rnic rnic, CompletionQueue cq, EmulatedCompChannel channel) {
        this.rnic = rnic;
        this.cq = cq;
        if (channel != null) {
            channel.attach(cq, this);
        }
    }

    CompletionQueue cq() {
        return cq;
    }

    @Override
    public int poll(WorkCompletion[] wcs) {
        return cq.poll(wcs, wcs.length);
    }

    @Override
    public void requestNotify(boolean solicitedOnly) {
        cq.requestNotify(solicitedOnly);
    }

    @Override
    public int capacity() {
        return cq.capacity();
    }

    @Override
    public void resize(int entries) throws VerbsException {
        Commands.run(rnic, () -> rnic.resizeCq(cq, entries));
    }

    @Override
    public void close() throws VerbsException {
        Commands.run(rnic, () -> rnic.destroyCq(cq));
    }

    @Override
    public String toString() {
        return cq.toString();
    }
}
