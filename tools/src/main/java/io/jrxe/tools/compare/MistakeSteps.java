package io.jrxe.tools.compare;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * The mistakes of `jrxe mistakes` that a kernel device lets a program make and that end the same way whatever the
 * timing: memory not registered, a wrong rkey, a buffer that does not start on a page (legal), too many SGEs, no
 * receive posted (RNR) and an lkey used after its MR was deregistered. Left out: a CQ nobody polls (a program would
 * have to wait, without polling, for a time it cannot know), a registration larger than the MTT (rxe has no MTT),
 * and deregistering under outstanding work (whether the NIC read the WQE first is a race on a kernel device).
 */
final class MistakeSteps {
    private MistakeSteps() {
    }

    static List<Step> all() {
        return List.of(
                Step.of("unregistered", "memory not registered: a WRITE from a buffer no MR covers, with A's lkey", e -> {
                    try (Arena stray = Arena.ofConfined()) {
                        MemorySegment unregistered = stray.allocate(4096, 4096);
                        SendWr w = e.remote(WrOpcode.RDMA_WRITE, 0, 64, 36864);
                        w.sgl.clear();
                        w.sgl.add(unregistered.address(), 64, e.a.mr.lkey());
                        e.post(w);
                        e.await(1, 0);
                    }
                    return MemoryView.describe("B", e.b.memory, 36864, 64);
                }),
                DemoSteps.wrongRkey(),
                Step.of("unaligned", "a buffer 100 bytes into a page: its own MR, an 8192-byte WRITE from it (legal)", e -> {
                    MemorySegment buffer = e.a.memory.asSlice(49152 + 100, 8192);
                    for (int i = 0; i < 8192; i++) {
                        buffer.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 3 + 1));
                    }
                    Mr mr = e.a.pd.regMr(buffer, Access.LOCAL_WRITE);
                    try {
                        SendWr w = e.remote(WrOpcode.RDMA_WRITE, 0, 8192, 49152);
                        w.sgl.clear();
                        w.sgl.add(buffer.address(), 8192, mr.lkey());
                        e.post(w);
                        e.await(1, 0);
                    } finally {
                        mr.close();
                    }
                    return MemoryView.describe("B", e.b.memory, 49152, 8192);
                }),
                Step.of("num-sge", "num_sge 3 on a QP made with max_send_sge 2: post_send refuses it", e -> {
                    SendWr w = new SendWr(3);
                    w.wrId = 77;
                    w.opcode = WrOpcode.RDMA_WRITE;
                    w.flags = SendWr.SIGNALED;
                    for (int i = 0; i < 3; i++) {
                        w.sgl.add(e.a.at(64L * i), 16, e.a.mr.lkey());
                    }
                    w.remoteAddr = e.b.at(40960);
                    w.rkey = e.rkeyB();
                    try {
                        e.post(w);
                    } catch (VerbsException refused) {
                        // The message is each provider's own; what a program can test is the errno.
                        return "post_send refused: " + refused.errno();
                    }
                    e.await(1, 0);
                    return "post_send accepted it";
                }),
                ErrorSteps.rnr(),
                Step.of("dereg-then-use", "an lkey used after its MR was deregistered", e -> {
                    Mr mr = e.a.pd.regMr(e.a.memory.asSlice(61440, 4096), Access.LOCAL_WRITE);
                    int lkey = mr.lkey();
                    mr.close();
                    SendWr w = e.remote(WrOpcode.RDMA_WRITE, 0, 64, 61440);
                    w.sgl.clear();
                    w.sgl.add(e.a.at(61440), 64, lkey);
                    e.post(w);
                    e.await(1, 0);
                    return MemoryView.describe("B", e.b.memory, 61440, 64);
                }));
    }
}
