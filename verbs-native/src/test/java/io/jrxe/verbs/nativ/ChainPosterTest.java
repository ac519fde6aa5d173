package io.jrxe.verbs.nativ;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvSendWr;
import io.jrxe.verbs.nativ.abi.IbvWc;
import io.jrxe.verbs.nativ.codec.Handles;
import io.jrxe.verbs.nativ.codec.SendWrEncoder;
import io.jrxe.verbs.nativ.codec.WcDecoder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Posting through a provider's post_send without a device: the function pointer is a C-callable
 * stub of a fake provider written here, reached through the same downcall as a real one. It
 * walks the native chain it is given, as a provider does, and can refuse one WR through bad_wr.
 */
class ChainPosterTest {
    private static final List<Long> POSTED = new ArrayList<>();
    private static final List<Integer> CALLS = new ArrayList<>();
    private static long refuse = -1;

    private final Arena arena = Arena.ofShared();
    private MemorySegment fakePostSend;

    /** int post_send(struct ibv_qp *, struct ibv_send_wr *, struct ibv_send_wr **bad_wr). */
    static int fakePostSend(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        int n = 0;
        for (MemorySegment w = wr.reinterpret(IbvSendWr.SIZE); !w.equals(MemorySegment.NULL);
             w = w.get(ADDRESS, IbvSendWr.NEXT).reinterpret(IbvSendWr.SIZE)) {
            long id = w.get(JAVA_LONG, IbvSendWr.WR_ID);
            if (id == refuse) {
                badWr.reinterpret(ADDRESS.byteSize()).set(ADDRESS, 0, w);
                CALLS.add(n);
                return 12; // ENOMEM: the send queue is full
            }
            POSTED.add(id);
            n++;
        }
        CALLS.add(n);
        return 0;
    }

    @BeforeEach
    void stub() throws Exception {
        POSTED.clear();
        CALLS.clear();
        refuse = -1;
        var target = MethodHandles.lookup().findStatic(ChainPosterTest.class, "fakePostSend",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class, MemorySegment.class));
        fakePostSend = Linker.nativeLinker().upcallStub(target, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), arena);
    }

    @AfterEach
    void close() {
        arena.close();
    }

    private SendPoster poster(int maxWr) {
        return new SendPoster(arena, fakePostSend, arena.allocate(64), maxWr, 2, 32, false, Handles.NONE, null, "post_send on QP 0x000011");
    }

    private static SendWr chain(int length) {
        SendWr first = null;
        for (int i = length - 1; i >= 0; i--) {
            SendWr w = new SendWr(1);
            w.wrId = i;
            w.opcode = WrOpcode.RDMA_WRITE;
            w.sgl.add(0x1000, 8, 1);
            first = w.next(first);
        }
        return first;
    }

    @Test
    void aLongChainGoesInBatchesInOrder() throws Exception {
        poster(16).post(chain(40));
        assertThat(POSTED).hasSize(40).isSorted();
        assertThat(CALLS).containsExactly(16, 16, 8);
    }

    @Test
    void theProvidersBadWrIsNamedByItsIndexInTheWholeChain() throws Exception {
        refuse = 21;
        assertThatThrownBy(() -> poster(16).post(chain(40)))
                .isInstanceOf(NativeVerbsException.class)
                .hasMessage("work request 21 of the chain: post_send on QP 0x000011: Cannot allocate memory (errno 12)");
        assertThat(POSTED).hasSize(21);
    }

    @Test
    void aWorkRequestLibibverbsCannotExpressStopsTheChainThereAfterPostingThoseBefore() {
        SendWr first = chain(3);
        first.next().opcode = WrOpcode.FLUSH;
        assertThatThrownBy(() -> poster(16).post(first))
                .isInstanceOf(VerbsException.class)
                .hasMessage("work request 1 of the chain: " + SendWrEncoder.NO_FLUSH);
        assertThat(POSTED).containsExactly(0L);
    }

    @Test
    void translatingWorkRequestsAndCompletionsAllocatesNothing() {
        MemorySegment wr = arena.allocate(IbvSendWr.LAYOUT);
        MemorySegment sges = arena.allocate(16 * 2);
        MemorySegment inline = arena.allocate(32);
        MemorySegment wc = arena.allocate(IbvWc.LAYOUT);
        wc.set(JAVA_INT, IbvWc.STATUS, WcStatus.SUCCESS.verbsValue());
        wc.set(JAVA_INT, IbvWc.OPCODE, WcOpcode.RDMA_WRITE.verbsValue());
        SendWr w = chain(1);
        WorkCompletion out = new WorkCompletion();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 2; round++) { // the first round warms the code up
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                w.wrId = i;
                SendWrEncoder.encode(w, wr, sges, inline, false, Handles.NONE);
                wc.set(JAVA_LONG, IbvWc.WR_ID, i);
                WcDecoder.decode(wc, out);
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            if (round == 1) {
                assertThat(allocated).as("bytes allocated by 100,000 WRs and WCs").isLessThan(100_000);
            }
        }
        assertThat(out.wrId()).isEqualTo(99_999);
    }
}
