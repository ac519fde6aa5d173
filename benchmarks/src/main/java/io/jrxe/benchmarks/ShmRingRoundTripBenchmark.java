package io.jrxe.benchmarks;

import io.jrxe.wire.port.shm.ShmDirectory;
import io.jrxe.wire.port.shm.ShmRing;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * A record's round trip between two threads through two shared-memory rings, as a packet and its answer go between two
 * NICs: the benchmark's thread claims, writes and commits a record in one ring and spins until the echo comes back in
 * the other, where a second thread reads each record and writes it back. Nothing but the rings runs, so the figure is
 * what their cache lines cost moving between two cores, against the bare round trip of one line (about half a
 * microsecond on the 2-core test machine). Needs two cores.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ShmRingRoundTripBenchmark {
    private static final int RING_BYTES = 8 << 20;
    private static final int TYPE = 1;

    /** 64: a small SEND's packet; 1024: a full packet at that MTU. */
    @Param({"64", "1024"})
    public int payload;

    private Path rings;
    private ShmRing outbox;
    private ShmRing outboxProducer;
    private ShmRing inbox;
    private ShmRing inboxProducer;
    private Thread echo;
    private volatile boolean running;
    private long sequence;
    private long answered;
    /** One handler for every read: a method reference made in the measured method would be an object per call. */
    private final ShmRing.RecordHandler takeAnswer = this::answered;

    @Setup(Level.Trial)
    public void start() throws IOException {
        // where the wire keeps its rings (memory on Linux), not a disk's page cache
        Path wire = Files.createDirectories(ShmDirectory.standard().path());
        rings = Files.createTempDirectory(wire, "ring-round-trip");
        outbox = ShmRing.create(rings.resolve("out.ring"), RING_BYTES);
        outboxProducer = ShmRing.open(outbox.file());
        inbox = ShmRing.create(rings.resolve("in.ring"), RING_BYTES);
        inboxProducer = ShmRing.open(inbox.file());
        running = true;
        echo = new Thread(this::echo, "ring-echo");
        echo.setDaemon(true);
        echo.start();
    }

    /** Reads each record of the outbox and writes its first word back through the inbox. */
    private void echo() {
        ShmRing.RecordHandler answer = (type, buffer, offset, length) -> {
            long back;
            while ((back = inboxProducer.claim(TYPE, length)) < 0) {
                Thread.onSpinWait(); // the benchmark's thread frees the inbox at its next read
            }
            inboxProducer.buffer().putLong((int) back, buffer.getLong(offset));
            inboxProducer.commit(back);
        };
        while (running) {
            if (outbox.read(answer, 1) == 0) {
                Thread.onSpinWait();
            }
        }
    }

    @Benchmark
    public long roundTrip() {
        long sent = ++sequence;
        long at;
        while ((at = outboxProducer.claim(TYPE, payload)) < 0) {
            Thread.onSpinWait();
        }
        outboxProducer.buffer().putLong((int) at, sent);
        outboxProducer.commit(at);
        while (inbox.read(takeAnswer, 1) == 0) {
            Thread.onSpinWait();
        }
        if (answered != sent) {
            throw new IllegalStateException("record " + sent + " came back as " + answered);
        }
        return answered;
    }

    private void answered(int type, ByteBuffer buffer, int offset, int length) {
        answered = buffer.getLong(offset);
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException, InterruptedException {
        running = false;
        echo.join();
        inboxProducer.close();
        inbox.close();
        outboxProducer.close();
        outbox.close();
        TemporaryDirectory.delete(rings);
    }
}
