package io.jrxe.benchmarks;

import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.icrc.Ipv4IdentificationSolver;
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
 * The ICRC of one RoCEv2 packet: an RDMA WRITE MIDDLE of {@code payload} bytes (BTH, payload, ICRC), as a NIC
 * thread computes it for every packet it sends ({@link #ipv4}) and checks it, solving for the IP identification a
 * UDP socket cannot see, for every packet it receives ({@link #solve}). Reported in ns per packet; for the 4096-byte
 * packet (4112 bytes of UDP payload) GB/s is 4112 / score. {@link #plainCrc32} runs the JDK's CRC-32 over the same
 * bytes, the floor the ICRC's own work (the masked pseudo-header) adds to: for small packets that work is most of it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IcrcBenchmark {
    private static final int SRC = 0x0A4D0002; // 10.77.0.2, as in the golden captures
    private static final int DST = 0x0A4D0003;
    private static final int DF = 0x4000;
    private static final int SRC_PORT = 49152;
    private static final int ROCE_PORT = 4791;

    @Param({"heap", "direct"})
    public String buffer;

    /** 64: a small SEND; 1024 and 4096: a full packet at those MTUs. */
    @Param({"64", "1024", "4096"})
    public int payload;

    private final IcrcCalculator icrc = new IcrcCalculator();
    private final Ipv4IdentificationSolver solver = new Ipv4IdentificationSolver();
    private final CRC32 crc32 = new CRC32();
    private ByteBuffer packet;
    private int roceLength;
    private final int identification = 0xdbf1; // one a kernel rxe peer chose, in the golden captures

    @Setup(Level.Trial)
    public void buildPacket() {
        roceLength = BthFlyweight.LENGTH + payload + IcrcCalculator.LENGTH;
        packet = switch (buffer) {
            case "heap" -> ByteBuffer.allocate(roceLength);
            case "direct" -> ByteBuffer.allocateDirect(roceLength);
            default -> throw new IllegalArgumentException("buffer must be heap or direct, not " + buffer);
        };
        byte[] bytes = new byte[payload];
        new Random(4791).nextBytes(bytes);
        packet.put(BthFlyweight.LENGTH, bytes);
        new BthFlyweight().wrap(packet, 0)
                .set(Opcode.RC_RDMA_WRITE_MIDDLE.code(), false, 0, BthFlyweight.DEFAULT_PKEY, 0x13, false, 899514);
        int value = icrc.ipv4(SRC, DST, identification, DF, SRC_PORT, ROCE_PORT, packet, 0, roceLength);
        IcrcCalculator.write(packet, roceLength - IcrcCalculator.LENGTH, value);
        if (IcrcCalculator.read(packet, roceLength - IcrcCalculator.LENGTH) != value) {
            throw new IllegalStateException("ICRC did not round-trip through the packet");
        }
        if (solver.solve(SRC, DST, DF, SRC_PORT, ROCE_PORT, packet, 0, roceLength) != identification) {
            throw new IllegalStateException("the solver did not find the packet's IP identification");
        }
    }

    @Benchmark
    public int ipv4() {
        return icrc.ipv4(SRC, DST, identification, DF, SRC_PORT, ROCE_PORT, packet, 0, roceLength);
    }

    @Benchmark
    public int solve() {
        return solver.solve(SRC, DST, DF, SRC_PORT, ROCE_PORT, packet, 0, roceLength);
    }

    @Benchmark
    public long plainCrc32() {
        CRC32 c = crc32;
        c.reset();
        packet.limit(roceLength - IcrcCalculator.LENGTH).position(0);
        c.update(packet);
        packet.clear();
        return c.getValue();
    }
}
