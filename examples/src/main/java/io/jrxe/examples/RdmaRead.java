package io.jrxe.examples;

import io.jrxe.verbs.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * One RDMA READ of 1 MiB: A reads B's registered memory into its own, B's CPU takes no part. The QPs are connected
 * by hand, each given the other's QP number, first PSN and GID. Arguments: two loopback addresses for two jrxe NICs
 * (127.0.0.1 and 127.0.0.2 without any), or the name of one RDMA device (rxe0) to run both ends on.
 */
public class RdmaRead {
    private static final int SIZE = 1 << 20;

    public static void main(String[] args) throws Exception {
        try (Arena arena = Arena.ofShared(); TwoEnds ends = TwoEnds.open("read", args)) {
            read(ends, arena);
        } catch (VerbsException e) {
            // No device of that name, or a verb refused: its errno and its sentence, not a stack trace.
            System.err.println("RdmaRead: " + e.errno() + ": " + e.getMessage());
            System.exit(2);
        }
    }

    private static void read(TwoEnds ends, Arena arena) throws Exception {
        MemorySegment source = arena.allocate(SIZE, 4096);
        MemorySegment target = arena.allocate(SIZE, 4096);
        for (int i = 0; i < SIZE; i++) {
            source.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + i / 4096));
        }
        Pd pdA = ends.a.allocPd(), pdB = ends.b.allocPd();
        Mr targetMr = pdA.regMr(target, Access.LOCAL_WRITE);
        Mr sourceMr = pdB.regMr(source, Access.REMOTE_READ); // B lets its peers read this memory
        Cq cqA = ends.a.createCq(16, null), cqB = ends.b.createCq(16, null);
        QpCapabilities caps = new QpCapabilities(16, 16, 1, 1, 0);
        Qp qpA = pdA.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false));
        Qp qpB = pdB.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
        ends.connect(qpA, qpB, Access.REMOTE_READ);

        // A needs only B's address and rkey: what B would send it out of band.
        SendWr read = new SendWr(1);
        read.opcode = WrOpcode.RDMA_READ;
        read.flags = SendWr.SIGNALED;
        read.sgl.add(target.address(), SIZE, targetMr.lkey());
        read.remoteAddr = source.address();
        read.rkey = sourceMr.rkey();
        qpA.postSend(read);

        WorkCompletion[] wc = {new WorkCompletion()};
        if (cqA.poll(wc, 10, TimeUnit.SECONDS) == 0) {
            throw new IllegalStateException("no completion within 10 s");
        }
        System.out.println("completion: " + wc[0].status() + " " + wc[0].opcode() + ", " + wc[0].byteLen() + " bytes");
        System.out.printf("B's memory: crc32 %08x%n", crc32(source));
        System.out.printf("A's copy:   crc32 %08x, the same bytes: %s%n", crc32(target), target.mismatch(source) == -1);
    }

    private static long crc32(MemorySegment memory) {
        CRC32 crc = new CRC32();
        crc.update(memory.asByteBuffer());
        return crc.getValue();
    }
}
