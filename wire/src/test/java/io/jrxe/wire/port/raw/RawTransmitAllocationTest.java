package io.jrxe.wire.port.raw;

import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The raw transmit path allocates nothing per packet in steady state: staging (ICRC, headers,
 * copy into native slots) and the sendmmsg flush, measured with the JVM's allocation counter of
 * the sending port's NIC thread.
 */
class RawTransmitAllocationTest {
    private static final int ROUNDS = 2_000;
    private static final int PER_ROUND = 128;

    @BeforeAll
    static void needsRawSocket() {
        RawPrivilege.assumeRawSocket();
    }

    @Test
    void steadyStateSendsAllocateNothingPerPacket() throws Exception {
        Random random = new Random(5);
        ByteBuffer[] packets = new ByteBuffer[PER_ROUND];
        for (int i = 0; i < PER_ROUND; i++) {
            packets[i] = ByteBuffer.wrap(SamplePackets.roce(Opcode.RC_RDMA_WRITE_MIDDLE, i % 2 == 0 ? 64 : 4096, random));
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (LoopbackPorts ports = LoopbackPorts.open("127.0.3.8", "127.0.3.9", RawSocketOpener.system())) {
            assertThat(ports.a.transmitPath()).isEqualTo(TransmitPath.RAW);
            PeerAddress to = ports.b.localAddress();
            long[] nicThread = new long[1];
            ports.onNicThreadOfA(() -> nicThread[0] = Thread.currentThread().threadId());
            Runnable round = () -> {
                for (ByteBuffer p : packets) {
                    ports.a.send(p, 0, p.limit(), to, 50_000);
                }
            };
            for (int i = 0; i < ROUNDS; i++) {
                ports.onNicThreadOfA(round); // warm-up: let the JIT compile and escape-analyse the path
            }
            long before = threads.getThreadAllocatedBytes(nicThread[0]);
            for (int i = 0; i < ROUNDS; i++) {
                ports.onNicThreadOfA(round);
            }
            ports.onNicThreadOfA(() -> { }); // the last round's flush has run
            long allocated = threads.getThreadAllocatedBytes(nicThread[0]) - before;
            double perPacket = allocated / (double) (ROUNDS * PER_ROUND);
            System.out.printf("raw transmit allocation: %d bytes over %d packets (%.4f bytes/packet), %d dropped%n",
                    allocated, ROUNDS * PER_ROUND, perPacket, ports.a.rawTransmitDrops());
            // One object per packet would be >= 16 bytes/packet; what remains is the event loop's own, per round.
            assertThat(perPacket).isLessThan(1.0);
            assertThat(ports.a.rawTransmitDrops()).isZero();
        }
    }
}
