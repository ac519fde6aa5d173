package io.jrxe.benchmarks;

import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.shm.ShmDirectory;
import io.jrxe.wire.port.shm.ShmPort;
import io.jrxe.wire.port.shm.ShmRing;
import io.jrxe.wire.port.udp.PortInUseException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One packet across the shared-memory wire on one thread: a SEND ONLY of {@code payload} bytes from one device's port
 * into another's ring, and the receiving port's read of it up to the NIC (which here takes it and does nothing). No
 * scheduler and no second core are involved, so the figure is the wire's own work per packet. {@code icrc}: {@code offload}
 * leaves the ICRC out, as the wire does for a packet nobody captures; {@code checked} is the receiving ring asking for
 * ICRCs, so that the sender computes each and the receiver checks it, as over UDP.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ShmWireBenchmark {
    private static final PeerAddress A = PeerAddress.of("10.77.0.2");
    private static final PeerAddress B = PeerAddress.of("10.77.0.3");
    private static final int SRC_PORT = 49152;

    @Param({"offload", "checked"})
    public String icrc;

    /** 64: a small SEND; 1024 and 4096: a full packet at those MTUs. */
    @Param({"64", "1024", "4096"})
    public int payload;

    private Path rings;
    private ShmPort sender;
    private ShmPort receiver;
    private ByteBuffer packet;
    private int roceLength;
    private long received;

    @Setup(Level.Trial)
    public void bind() throws IOException, PortInUseException {
        rings = Files.createTempDirectory("jrxe-shm-bench");
        ShmDirectory directory = new ShmDirectory(rings);
        sender = ShmPort.bind(A, directory, ShmPort.DEFAULT_RING_BYTES);
        receiver = ShmPort.bind(B, directory, ShmPort.DEFAULT_RING_BYTES);
        receiver.receiver(new PacketSink() {
            @Override
            public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
                received++;
            }

            @Override
            public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
                throw new IllegalStateException("the benchmark's packet was dropped: " + reason.description());
            }
        });
        switch (icrc) {
            case "offload" -> { }
            case "checked" -> {
                try (ShmRing ring = ShmRing.open(receiver.ringFile())) {
                    ring.askForIcrcs();
                }
            }
            default -> throw new IllegalArgumentException("icrc must be offload or checked, not " + icrc);
        }
        roceLength = BthFlyweight.LENGTH + payload + IcrcCalculator.LENGTH;
        packet = ByteBuffer.allocateDirect(roceLength);
        byte[] bytes = new byte[payload];
        new Random(4791).nextBytes(bytes);
        packet.put(BthFlyweight.LENGTH, bytes);
        new BthFlyweight().wrap(packet, 0).set(Opcode.RC_SEND_ONLY.code(), false, 0, BthFlyweight.DEFAULT_PKEY, 0x13, false, 1);
    }

    @Benchmark
    public long sendAndReceive() {
        sender.send(packet, 0, roceLength, B, SRC_PORT);
        if (receiver.receive(1) != 1) {
            throw new IllegalStateException("the packet did not arrive");
        }
        return received;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        sender.close();
        receiver.close();
        TemporaryDirectory.delete(rings);
    }
}
