package io.jrxe.verbs.nativ;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.nativ.abi.IbvQpEx;
import io.jrxe.verbs.nativ.abi.IbvSendWr;
import io.jrxe.verbs.nativ.codec.Handles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * FLUSH and ATOMIC_WRITE through the extended QP API without a device: a fake provider's
 * ibv_qp_ex whose wr_start, wr_flush, wr_atomic_write and wr_complete are C-callable stubs
 * written here, next to a fake post_send, so that a chain shows what went which way, in order,
 * with which arguments.
 */
class ExtendedSendsTest {
    private static final List<String> CALLS = new ArrayList<>();
    private static MemorySegment qpx;
    private static int completeStatus;

    private final Arena arena = Arena.ofShared();
    private SendPoster poster;

    static void wrStart(MemorySegment q) {
        CALLS.add("start");
    }

    static int wrComplete(MemorySegment q) {
        CALLS.add("complete");
        return completeStatus;
    }

    static void wrAtomicWrite(MemorySegment q, int rkey, long remoteAddr, long value) {
        long v = MemorySegment.ofAddress(value).reinterpret(8).get(JAVA_LONG, 0);
        CALLS.add(String.format("atomic_write id=%d flags=%d rkey=0x%x addr=0x%x value=0x%x", wrId(), wrFlags(), rkey, remoteAddr, v));
    }

    static void wrFlush(MemorySegment q, int rkey, long remoteAddr, long length, byte type, byte level) {
        CALLS.add(String.format("flush id=%d flags=%d rkey=0x%x addr=0x%x len=%d type=%d level=%d", wrId(), wrFlags(), rkey, remoteAddr,
                length, type, level));
    }

    static int postSend(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        for (MemorySegment w = wr.reinterpret(IbvSendWr.SIZE); !w.equals(MemorySegment.NULL);
             w = w.get(ADDRESS, IbvSendWr.NEXT).reinterpret(IbvSendWr.SIZE)) {
            CALLS.add("post_send id=" + w.get(JAVA_LONG, IbvSendWr.WR_ID));
        }
        return 0;
    }

    private static long wrId() {
        return qpx.get(JAVA_LONG, IbvQpEx.WR_ID);
    }

    private static int wrFlags() {
        return qpx.get(JAVA_INT, IbvQpEx.WR_FLAGS);
    }

    private MemorySegment stub(String name, FunctionDescriptor d) throws Exception {
        MethodType type = d.toMethodType();
        return Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(ExtendedSendsTest.class, name, type), d, arena);
    }

    @BeforeEach
    void fakeProvider() throws Exception {
        CALLS.clear();
        completeStatus = 0;
        qpx = arena.allocate(IbvQpEx.SIZE_WITH_FLUSH, 8);
        qpx.set(ADDRESS, IbvQpEx.WR_START, stub("wrStart", FunctionDescriptor.ofVoid(ADDRESS)));
        qpx.set(ADDRESS, IbvQpEx.WR_COMPLETE, stub("wrComplete", FunctionDescriptor.of(JAVA_INT, ADDRESS)));
        qpx.set(ADDRESS, IbvQpEx.WR_ATOMIC_WRITE, stub("wrAtomicWrite", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG)));
        qpx.set(ADDRESS, IbvQpEx.WR_FLUSH, stub("wrFlush",
                FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_BYTE, JAVA_BYTE)));
        MemorySegment postSend = stub("postSend", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        poster = new SendPoster(arena, postSend, qpx, 16, 2, 0, false, Handles.NONE, new ExtendedSends(qpx), "post_send on QP 0x000011");
    }

    @AfterEach
    void close() {
        arena.close();
    }

    private SendWr wr(long id, WrOpcode op, long length) {
        SendWr w = new SendWr(2);
        w.wrId = id;
        w.opcode = op;
        w.flags = SendWr.SIGNALED;
        w.rkey = 0x1234;
        w.remoteAddr = 0x7000 + id * 8;
        MemorySegment local = arena.allocate(Math.max(8, length), 8);
        local.set(JAVA_LONG, 0, 0x0102030405060708L);
        w.sgl.add(local.address(), (int) length, 7);
        return w;
    }

    @Test
    void aChainKeepsItsOrderAcrossBothPaths() throws Exception {
        SendWr chain = wr(0, WrOpcode.RDMA_WRITE, 64).next(wr(1, WrOpcode.RDMA_WRITE, 64)
                .next(wr(2, WrOpcode.FLUSH, 4096).next(wr(3, WrOpcode.SEND, 16).next(wr(4, WrOpcode.ATOMIC_WRITE, 8)))));
        poster.post(chain);
        assertThat(CALLS).containsExactly(
                "post_send id=0", "post_send id=1",
                "start", "flush id=2 flags=2 rkey=0x1234 addr=0x7010 len=4096 type=1 level=0", "complete",
                "post_send id=3",
                "start", "atomic_write id=4 flags=2 rkey=0x1234 addr=0x7020 value=0x102030405060708", "complete");
    }

    @Test
    void aRefusalOfWrCompleteNamesTheWorkRequestsPlaceInTheChain() {
        completeStatus = 28; // ENOSPC: what rxe's provider returns when the send queue is full
        SendWr chain = wr(0, WrOpcode.RDMA_WRITE, 64).next(wr(1, WrOpcode.FLUSH, 64));
        assertThatThrownBy(() -> poster.post(chain)).isInstanceOf(VerbsException.class)
                .hasMessageStartingWith("work request 1 of the chain: post_send on QP 0x000011: ")
                .hasMessageContaining("errno 28");
        assertThat(CALLS).startsWith("post_send id=0", "start");
    }

    @Test
    void anAtomicWriteNeedsOneEightByteSge() {
        assertThatThrownBy(() -> poster.post(wr(0, WrOpcode.ATOMIC_WRITE, 16))).isInstanceOf(VerbsException.class)
                .hasMessage("work request 0 of the chain: ATOMIC_WRITE takes its value from one 8-byte SGE, not 1 SGEs of 16 bytes");
        assertThat(CALLS).isEmpty();
    }
}
