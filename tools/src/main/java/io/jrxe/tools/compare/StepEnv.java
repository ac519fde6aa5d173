package io.jrxe.tools.compare;

import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;

import java.util.ArrayList;
import java.util.List;

/**
 * What a step works with: the two nodes, its connection, the path MTU, and the completions it collected. Steps
 * post through it and wait through it, so that every setup runs the same calls.
 */
final class StepEnv {
    final Node a;
    final Node b;
    final Connection c;
    final Mtu mtu;
    final List<Completion> onA = new ArrayList<>();
    final List<Completion> onB = new ArrayList<>();
    /** What a timed step measured, in words (bandwidth, latency); null for the others. */
    String speed;
    private final long timeoutNanos;
    private final boolean wrongKeyInjected;
    private final WorkCompletion[] wc = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
    private long wrIds;

    StepEnv(Node a, Node b, Connection c, Mtu mtu, long timeoutNanos, boolean wrongKeyInjected) {
        this.a = a;
        this.b = b;
        this.c = c;
        this.mtu = mtu;
        this.timeoutNanos = timeoutNanos;
        this.wrongKeyInjected = wrongKeyInjected;
    }

    /** B's rkey as the steps use it (one more when a test injects a difference into this step of this setup). */
    int rkeyB() {
        return wrongKeyInjected ? b.mr.rkey() + 1 : b.mr.rkey();
    }

    /** A signaled work request on A over its buffer at {@code offset}. */
    SendWr wr(WrOpcode op, long offset, int length) {
        SendWr w = new SendWr(1);
        w.wrId = ++wrIds;
        w.opcode = op;
        w.flags = SendWr.SIGNALED;
        w.sgl.add(a.at(offset), length, a.mr.lkey());
        return w;
    }

    /** The same, aimed at B's buffer at {@code remoteOffset}. */
    SendWr remote(WrOpcode op, long offset, int length, long remoteOffset) {
        SendWr w = wr(op, offset, length);
        w.remoteAddr = b.at(remoteOffset);
        w.rkey = rkeyB();
        return w;
    }

    void postRecvB(long offset, int length) throws VerbsException {
        RecvWr r = new RecvWr(1);
        r.wrId = 1000 + ++wrIds;
        r.sgl.add(b.at(offset), length, b.mr.lkey());
        c.qpB.postRecv(r);
    }

    void post(SendWr w) throws VerbsException {
        c.qpA.postSend(w);
    }

    /** Posts {@code w} with an rkey B never gave out, and waits for A's completion. */
    void postWithWrongRkey(SendWr w) throws VerbsException {
        w.rkey = rkeyB() + 1;
        post(w);
        await(1, 0);
    }

    /**
     * Collects completions until A has {@code onA} and B {@code onB} more of them, or the step's timeout passes
     * (then what came is what the step shows). True when all came.
     */
    boolean await(int moreOnA, int moreOnB) {
        int wantA = onA.size() + moreOnA;
        int wantB = onB.size() + moreOnB;
        long start = System.nanoTime();
        BackoffIdle idle = new BackoffIdle();
        int looks = 0;
        while (onA.size() < wantA || onB.size() < wantB) {
            int n = drain(c.cqA, onA) + drain(c.cqB, onB);
            if (n > 0) {
                looks = 0; // spin again first: more may follow at once
            } else if (idle.idle(++looks, start, timeoutNanos)) {
                return false;
            }
        }
        return true;
    }

    /** Whatever completions are there now, on both sides (what a step did not expect). */
    void drainBoth() {
        drain(c.cqA, onA);
        drain(c.cqB, onB);
    }

    private int drain(Cq cq, List<Completion> into) {
        int total = 0;
        for (int n = cq.poll(wc), rounds = 0; n > 0 && rounds < Connection.DEPTH; n = cq.poll(wc), rounds++) {
            for (int i = 0; i < n; i++) {
                into.add(Completion.of(wc[i]));
            }
            total += n;
        }
        return total;
    }
}
