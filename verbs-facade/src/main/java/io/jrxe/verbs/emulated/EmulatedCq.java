package io.jrxe.verbs.emulated;

import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.verbs.idle.CompletionPoll;
import java.util.concurrent.TimeUnit;

import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;

final class EmulatedCq implements Cq, OwnedByContext {
    private final NicResources rnic;
    private final CompletionQueue cq;
    private final EmulatedDevice device;
    private final CloseOnce closing = new CloseOnce();
    /** How poll with a timeout waits: its parks sleep on this CQ, which a completion ends at once. */
    private final BackoffIdle idle = new BackoffIdle(this::sleepUntilCompletion);

    EmulatedCq(EmulatedDevice device, CompletionQueue cq, EmulatedCompChannel channel) {
        this.device = device;
        this.rnic = device.rnic();
        this.cq = cq;
        if (channel != null) {
            channel.attach(cq, this);
        }
    }

    CompletionQueue cq() {
        return cq;
    }

    EmulatedDevice device() {
        return device;
    }

    @Override
    public int poll(WorkCompletion[] wcs) {
        int n = cq.poll(wcs, wcs.length);
        if (n == 0 && device.progress() > 0) {
            n = cq.poll(wcs, wcs.length); // an invoked NIC ran on this thread just now and may have completed work
        }
        return n;
    }

    @Override
    public int poll(WorkCompletion[] wcs, long timeout, TimeUnit unit) throws InterruptedException {
        return CompletionPoll.poll(this, wcs, unit.toNanos(timeout), idle);
    }

    /** See {@link EmulatedExtension#sleepUntilCompletion}. */
    boolean sleepUntilCompletion(long nanos) {
        if (device.progressMode() == Progress.INVOKER) {
            return false; // the poller's thread runs this NIC: asleep, it would complete nothing
        }
        cq.sleepUntilCompletion(nanos);
        return true;
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
    public boolean isClosed() {
        return closing.isClosed();
    }

    @Override
    public void close() throws VerbsException {
        closing.close(device, rnic, () -> rnic.destroyCq(cq));
    }

    @Override
    public String toString() {
        return cq.toString();
    }
}
