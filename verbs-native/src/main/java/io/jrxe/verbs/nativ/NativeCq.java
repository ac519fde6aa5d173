package io.jrxe.verbs.nativ;

import java.util.concurrent.TimeUnit;
import io.jrxe.verbs.idle.CompletionPoll;
import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvCq;
import io.jrxe.verbs.nativ.abi.IbvWc;
import io.jrxe.verbs.nativ.codec.WcDecoder;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A completion queue of a kernel device (struct ibv_cq). Polling goes through the provider's
 * poll_cq into ibv_wc entries allocated once, translated into the caller's WorkCompletions: no
 * allocation per completion.
 */
final class NativeCq implements Cq {
    private final CloseOnce closing = new CloseOnce();
    /** ibv_wc entries one poll_cq call fills at most; a longer poll loops. */
    static final int BATCH = 32;

    private final NativeContext context;
    private final MemorySegment cq;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment wcs = arena.allocate(IbvWc.LAYOUT, BATCH);
    private final MemorySegment[] slots = new MemorySegment[BATCH];

    NativeCq(NativeContext context, MemorySegment cq) {
        this.context = context;
        this.cq = cq.reinterpret(IbvCq.SIZE);
        for (int i = 0; i < BATCH; i++) {
            slots[i] = wcs.asSlice(i * IbvWc.SIZE, IbvWc.SIZE);
        }
    }

    MemorySegment cq() {
        return cq;
    }

    /** ibv_poll_cq. A provider error (a negative return) is a broken CQ: it is thrown unchecked. */
    @Override
    public synchronized int poll(WorkCompletion[] out) {
        int done = 0;
        while (done < out.length) {
            int want = Math.min(BATCH, out.length - done);
            int n = DataPathCalls.pollCq(context.pollCq, cq, want, wcs);
            if (n < 0) {
                throw new IllegalStateException("poll_cq on a CQ of " + context.name() + " failed: "
                        + Libc.strerror(-n) + " (" + n + ")");
            }
            for (int i = 0; i < n; i++) {
                WcDecoder.decode(slots[i], out[done + i]);
            }
            done += n;
            if (n < want) {
                break;
            }
        }
        return done;
    }

    /** ibv_req_notify_cq. */
    @Override
    public void requestNotify(boolean solicitedOnly) {
        int rc = DataPathCalls.requestNotify(context.reqNotifyCq, cq, solicitedOnly ? 1 : 0);
        if (rc != 0) {
            throw new IllegalStateException("req_notify_cq on a CQ of " + context.name() + " failed: "
                    + Libc.strerror(Math.abs(rc)));
        }
    }

    /** The number of entries the device gave the CQ (at least what was asked for). */
    @Override
    public int capacity() {
        return cq.get(JAVA_INT, IbvCq.CQE);
    }

    @Override
    public void resize(int entries) throws VerbsException {
        context.lib.check("ibv_resize_cq", cq, entries);
    }

    /** Polls with the library's backing-off wait; its parks are timed, since a kernel CQ ends none early. */
    @Override
    public int poll(WorkCompletion[] wcs, long timeout, TimeUnit unit) throws InterruptedException {
        return CompletionPoll.poll(this, wcs, unit.toNanos(timeout), BackoffIdle.PARK_ONLY_WAIT);
    }

    @Override
    public void close() throws VerbsException {
        closing.close(() -> {
            context.lib.check("ibv_destroy_cq", cq);
            context.forget(this);
            arena.close();
        });
    }

    @Override
    public String toString() {
        return "CQ " + cq.get(JAVA_INT, IbvCq.HANDLE) + " of " + context.name();
    }
}
