package io.jrxe.benchmarks;

import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The ICRC of one full-MTU RoCEv2 packet: a 4096-byte RDMA WRITE MIDDLE (BTH, payload, ICRC:
 * 4112 bytes of UDP payload), as a NIC thread computes it for every packet it sends and
 * receives. Reported in ns per packet; GB/s is 4112 / score. {@link #plainCrc32} runs the JDK's
 * CRC-32 over the same bytes, the floor the ICRC's own work (the masked pseudo-header) adds to.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IcrcBenchmark {
    static final int PAYLOAD = 4096;
    static final int ROCE_LENGTH = BthFlyweight.LENGTH + PAYLOAD + IcrcCalculator.LENGTH;

    private static final int SRC = 0x0A4D0002; // 10.77.0.2, as in the golden captures
    private static final int DST = 0x0A4D0003;
    private static final int DF = 0x4000;
    private static final int SRC_PORT = 49152;
    private static final int ROCE_PORT = 4791;

    @Param({"heap", "direct"})
    public String buffer;

    private final IcrcCalculator icrc = new IcrcCalculator();
    private final CRC32 crc32 = new CRC32();
    private ByteBuffer packet;
    private int identification;

    @Setup(Level.Trial)
    public void buildPacket() {
        packet = switch (buffer) {
            case "heap" -> ByteBuffer.allocate(ROCE_LENGTH);
            case "direct" -> ByteBuffer.allocateDirect(ROCE_LENGTH);
            default -> throw new IllegalArgumentException("buffer must be heap or direct, not " + buffer);
        };
        byte[] payload = new byte[PAYLOAD];
        new Random(4791).nextBytes(payload);
        packet.put(BthFlyweight.LENGTH, payload);
        new BthFlyweight().wrap(packet, 0)
                .set(Opcode.RC_RDMA_WRITE_MIDDLE.code(), false, 0, BthFlyweight.DEFAULT_PKEY, 0x13, false, 899514);
        identification = 0xdbf1;
        int value = icrc.ipv4(SRC, DST, identification, DF, SRC_PORT, ROCE_PORT, packet, 0, ROCE_LENGTH);
        IcrcCalculator.write(packet, ROCE_LENGTH - IcrcCalculator.LENGTH, value);
        if (IcrcCalculator.read(packet, ROCE_LENGTH - IcrcCalculator.LENGTH) != value) {
            throw new IllegalStateException("ICRC did not round-trip through the packet");
        }
    }

    @Benchmark
    public int ipv4() {
        return icrc.ipv4(SRC, DST, identification, DF, SRC_PORT, ROCE_PORT, packet, 0, ROCE_LENGTH);
    }

    @Benchmark
    public long plainCrc32() {
        CRC32 c = crc32;
        c.reset();
        packet.limit(ROCE_LENGTH - IcrcCalculator.LENGTH).position(0);
        c.update(packet);
        packet.clear();
        return c.getValue();
    }
}
