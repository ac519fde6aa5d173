package io.jrxe.tools.compare;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WrOpcode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The steps of `jrxe demo`, one work request of each kind from A to B: SEND/RECV, SEND_WITH_IMM, RDMA_WRITE,
 * RDMA_WRITE_WITH_IMM, RDMA_READ, the two atomics, a message of several packets and a WRITE with a wrong rkey.
 * The buffers carry over from step to step (the atomics work on the same word), the connections do not.
 */
final class DemoSteps {
    private DemoSteps() {
    }

    static List<Step> all() {
        return List.of(
                Step.of("send", "SEND / RECV: 16 bytes into a receive B posted", e -> {
                    byte[] text = "hello from the A".getBytes(StandardCharsets.US_ASCII);
                    e.a.memory.asSlice(0, text.length).copyFrom(MemorySegment.ofArray(text));
                    e.postRecvB(0, 256);
                    e.post(e.wr(WrOpcode.SEND, 0, text.length));
                    e.await(1, 1);
                    return MemoryView.describe("B", e.b.memory, 0, text.length);
                }),
                Step.of("send-imm", "SEND_WITH_IMM: 8 bytes and immediate data 0x00c0ffee", e -> {
                    e.postRecvB(1024, 256);
                    SendWr w = e.wr(WrOpcode.SEND_WITH_IMM, 0, 8);
                    w.immData = 0xC0FFEE;
                    e.post(w);
                    e.await(1, 1);
                    return MemoryView.describe("B", e.b.memory, 1024, 8);
                }),
                Step.of("write", "RDMA_WRITE: 64 bytes into B's memory", e -> {
                    e.a.memory.asSlice(4096, 64).fill((byte) 0x5A);
                    e.post(e.remote(WrOpcode.RDMA_WRITE, 4096, 64, 8192));
                    e.await(1, 0);
                    return MemoryView.describe("B", e.b.memory, 8192, 64);
                }),
                Step.of("write-imm", "RDMA_WRITE_WITH_IMM: 32 bytes and immediate data 42, consuming a receive", e -> {
                    e.postRecvB(2048, 256);
                    SendWr w = e.remote(WrOpcode.RDMA_WRITE_WITH_IMM, 4096, 32, 12288);
                    w.immData = 42;
                    e.post(w);
                    e.await(1, 1);
                    return MemoryView.describe("B", e.b.memory, 12288, 32);
                }),
                Step.of("read", "RDMA_READ: 15 bytes from B's memory", e -> {
                    byte[] text = "read me, A!    ".getBytes(StandardCharsets.US_ASCII);
                    e.b.memory.asSlice(16384, text.length).copyFrom(MemorySegment.ofArray(text));
                    e.post(e.remote(WrOpcode.RDMA_READ, 20480, text.length, 16384));
                    e.await(1, 0);
                    return MemoryView.describe("A", e.a.memory, 20480, text.length);
                }),
                Step.of("cmp-swap", "ATOMIC_CMP_AND_SWP: if B's word is 7 make it 99", e -> {
                    e.b.memory.set(ValueLayout.JAVA_LONG, 24576, 7);
                    SendWr w = e.remote(WrOpcode.ATOMIC_CMP_AND_SWP, 28672, 8, 24576);
                    w.compareAdd = 7;
                    w.swap = 99;
                    e.post(w);
                    e.await(1, 0);
                    return words(e);
                }),
                Step.of("fetch-add", "ATOMIC_FETCH_AND_ADD: add 1 to B's word", e -> {
                    SendWr w = e.remote(WrOpcode.ATOMIC_FETCH_AND_ADD, 28672, 8, 24576);
                    w.compareAdd = 1;
                    e.post(w);
                    e.await(1, 0);
                    return words(e);
                }),
                Step.of("multi-packet", mtu -> "a message of several packets: an RDMA_WRITE of " + (3 * mtu.bytes() + 100)
                        + " bytes at path MTU " + mtu.bytes(), QpSettings.DEFAULT, e -> {
                    int length = 3 * e.mtu.bytes() + 100;
                    for (int i = 0; i < length; i++) {
                        e.a.memory.set(ValueLayout.JAVA_BYTE, 32768 + i, (byte) (i * 7));
                    }
                    e.post(e.remote(WrOpcode.RDMA_WRITE, 32768, length, 32768));
                    e.await(1, 0);
                    return MemoryView.describe("B", e.b.memory, 32768, length);
                }),
                wrongRkey());
    }

    /** The deliberate mistake, also one of the mistakes scenario's. */
    static Step wrongRkey() {
        return Step.of("wrong-rkey", "RDMA_WRITE with a wrong rkey: B answers NAK (remote access error)", e -> {
            e.postWithWrongRkey(e.remote(WrOpcode.RDMA_WRITE, 4096, 64, 0));
            return MemoryView.describe("B", e.b.memory, 0, 64);
        });
    }

    private static String words(StepEnv e) {
        return "B's word " + MemoryView.word(e.b.memory, 24576) + ", A got " + MemoryView.word(e.a.memory, 28672);
    }
}
