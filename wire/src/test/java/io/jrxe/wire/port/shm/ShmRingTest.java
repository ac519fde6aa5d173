package io.jrxe.wire.port.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShmRingTest {
    private static final int RING_BYTES = 64 * 1024;
    /** Long enough that no live producer of these tests is ever taken over, however the machine schedules it. */
    private static final long NEVER_UNBLOCK_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path directory;

    @Test
    void oneProducerLapsTheRingAndEveryRecordComesBackInOrderWithItsBytes() throws IOException {
        Random random = new Random(20261129);
        int count = 3000;
        int[] lengths = new int[count];
        for (int i = 0; i < count; i++) {
            lengths[i] = 1 + random.nextInt(5000);
        }
        try (ShmRing ring = ShmRing.create(directory.resolve("ring"), RING_BYTES)) {
            ring.unblockNanos(NEVER_UNBLOCK_NANOS);
            List<String> problems = new ArrayList<>();
            int[] next = {0};
            ShmRing.RecordHandler check = (type, buffer, offset, length) -> {
                int sequence = next[0]++;
                if (type != 1 + sequence % 5 || length != lengths[sequence]
                        || !ShmRingChild.payloadMatches(buffer, offset, length, sequence)) {
                    problems.add("record " + sequence + ": type " + type + ", " + length + " bytes");
                }
            };
            long written = 0;
            for (int sequence = 0; sequence < count; sequence++) {
                long offset = ring.claim(1 + sequence % 5, lengths[sequence]);
                if (offset < 0) {
                    assertThat(ring.read(check, Integer.MAX_VALUE)).isPositive();
                    ring.read(check, 0); // frees what the read before handed over
                    offset = ring.claim(1 + sequence % 5, lengths[sequence]);
                }
                assertThat(offset).as("claim after the ring was emptied").isPositive();
                ShmRingChild.writePayload(ring.buffer(), (int) offset, lengths[sequence], sequence);
                assertThat(ring.commit(offset)).isTrue();
                written += lengths[sequence];
            }
            while (ring.hasRecords()) {
                ring.read(check, 7);
            }
            assertThat(problems).isEmpty();
            assertThat(next[0]).isEqualTo(count);
            assertThat(written).as("bytes through the ring: several laps").isGreaterThan(10L * RING_BYTES);
            assertThat(ring.unblocked()).isZero();
        }
    }

    @Test
    void aFullRingRefusesClaimsUntilTheConsumerFreesSpaceAtItsNextReadAndThenPadsToTheEnd() throws IOException {
        try (ShmRing ring = ShmRing.create(directory.resolve("ring"), 4096)) {
            int payload = 100; // a record of 112 bytes once aligned
            List<Long> claimed = new ArrayList<>();
            long offset;
            while ((offset = ring.claim(3, payload)) >= 0) {
                claimed.add(offset);
            }
            assertThat(claimed).hasSize(4096 / 112);
            claimed.forEach(ring::commit);

            AtomicInteger delivered = new AtomicInteger();
            assertThat(ring.read((type, buffer, at, length) -> delivered.incrementAndGet(), 1)).isOne();
            assertThat(ring.claim(3, payload)).as("a record read is freed at the consumer's next read").isEqualTo(-1);
            assertThat(ring.read((type, buffer, at, length) -> delivered.incrementAndGet(), 0)).isZero();
            long wrapped = ring.claim(3, payload);
            assertThat(wrapped).as("the record after the padding starts the data area").isEqualTo(ShmRing.HEADER_BYTES + ShmRing.RECORD_HEADER);
            assertThat(ring.claim(3, payload)).isEqualTo(-1);
            ring.commit(wrapped);

            List<Integer> types = new ArrayList<>();
            assertThat(ring.read((type, buffer, at, length) -> types.add(type), Integer.MAX_VALUE)).isEqualTo(claimed.size());
            assertThat(types).hasSize(claimed.size()).containsOnly(3);
            assertThat(ring.hasRecords()).isFalse();
        }
    }

    @Test
    void fourProducerThreadsDeliverEveryRecordOnceInEachProducersOrder() throws Exception {
        int producers = 4;
        int perProducer = 50_000;
        try (ShmRing ring = ShmRing.create(directory.resolve("ring"), RING_BYTES)) {
            ring.unblockNanos(NEVER_UNBLOCK_NANOS);
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                threads.add(Thread.ofPlatform().name("producer-" + p).start(() -> {
                    ByteBuffer buffer = ring.buffer();
                    for (int sequence = 0; sequence < perProducer; sequence++) {
                        int length = 8 + (sequence * 13 + producer * 7) % 120;
                        long offset;
                        while ((offset = ring.claim(1 + producer, length)) < 0) {
                            if (System.nanoTime() > deadline) {
                                problems.add("producer " + producer + " found the ring full until the deadline");
                                return;
                            }
                            Thread.yield();
                        }
                        buffer.putInt((int) offset, producer);
                        buffer.putInt((int) offset + 4, sequence);
                        ShmRingChild.writePayload(buffer, (int) offset + 8, length - 8, seed(producer, sequence));
                        if (!ring.commit(offset)) {
                            problems.add("producer " + producer + " lost record " + sequence);
                        }
                    }
                }));
            }
            int[] next = new int[producers];
            int[] received = {0};
            ShmRing.RecordHandler check = (type, buffer, offset, length) -> {
                received[0]++;
                int producer = buffer.getInt(offset);
                int sequence = buffer.getInt(offset + 4);
                if (producer < 0 || producer >= producers || type != 1 + producer || sequence != next[producer]
                        || length != 8 + (sequence * 13 + producer * 7) % 120
                        || !ShmRingChild.payloadMatches(buffer, offset + 8, length - 8, seed(producer, sequence))) {
                    problems.add("producer " + producer + " record " + sequence + " of " + length + " bytes");
                    return;
                }
                next[producer]++;
            };
            while (received[0] < producers * perProducer && problems.isEmpty() && System.nanoTime() < deadline) {
                if (ring.read(check, 64) == 0) {
                    Thread.yield();
                }
            }
            for (Thread thread : threads) {
                thread.join(TimeUnit.NANOSECONDS.toMillis(Math.max(1, deadline - System.nanoTime())));
            }
            assertThat(problems).isEmpty();
            assertThat(next).containsOnly(perProducer);
            assertThat(received[0]).isEqualTo(producers * perProducer);
            assertThat(ring.hasRecords()).isFalse();
        }
    }

    @Test
    void recordsWrittenByAnotherProcessArriveIntact() throws Exception {
        int count = 20_000;
        try (ShmRing ring = ShmRing.create(directory.resolve("ring"), RING_BYTES)) {
            ring.unblockNanos(NEVER_UNBLOCK_NANOS);
            // a producer of this JVM that opened its own descriptor would drop the owner's lock when closing it
            ShmRing.open(ring.file()).close();
            Process child = startChild("produce", ring.file().toString(), Integer.toString(count));
            try {
                List<String> problems = new ArrayList<>();
                int[] next = {0};
                ShmRing.RecordHandler check = (type, buffer, offset, length) -> {
                    int sequence = next[0]++;
                    if (type != ShmRingChild.RECORD_TYPE || length != ShmRingChild.payloadLength(sequence)
                            || !ShmRingChild.payloadMatches(buffer, offset, length, sequence)) {
                        problems.add("record " + sequence + ": type " + type + ", " + length + " bytes");
                    }
                };
                long deadline = System.nanoTime() + DEADLINE_NANOS;
                while (next[0] < count && (child.isAlive() || ring.hasRecords()) && System.nanoTime() < deadline) {
                    if (ring.read(check, 64) == 0) {
                        Thread.yield();
                    }
                }
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the producing process ends").isTrue();
                assertThat(child.exitValue()).isZero();
                assertThat(child.inputReader(StandardCharsets.US_ASCII).readLine()).isEqualTo("owner alive");
                assertThat(problems).isEmpty();
                assertThat(next[0]).isEqualTo(count);
            } finally {
                child.destroyForcibly();
            }
        }
    }

    @Test
    void aClaimNeverCommittedIsTakenOverAfterTheUnblockTimeAndItsLateCommitFails() throws IOException {
        try (ShmRing ring = ShmRing.create(directory.resolve("ring"), RING_BYTES);
                ShmRing producer = ShmRing.open(ring.file())) {
            ring.unblockNanos(TimeUnit.MILLISECONDS.toNanos(1));
            long abandoned = producer.claim(1, 100);
            long later = producer.claim(2, 10);
            ShmRingChild.writePayload(producer.buffer(), (int) later, 10, 2);
            assertThat(producer.commit(later)).isTrue();
            assertThat(producer.icrcsWanted()).isFalse();

            List<Integer> types = readUntilDelivered(ring, 1);
            assertThat(types).containsExactly(2);
            assertThat(ring.unblocked()).isOne();
            assertThat(producer.icrcsWanted()).as("a late write may spoil a later record: only an ICRC shows it").isTrue();
            assertThat(producer.commit(abandoned)).as("the consumer took the record over").isFalse();
            assertThat(ring.hasRecords()).isFalse();
        }
    }

    @Test
    void aClaimWhoseHeaderWasNeverWrittenIsSkippedUpToTheNextRecord() throws IOException {
        try (ShmRing ring = ShmRing.create(directory.resolve("ring"), RING_BYTES)) {
            ring.unblockNanos(TimeUnit.MILLISECONDS.toNanos(1));
            // a producer that died right after moving the tail over 48 bytes, before writing any header
            ring.buffer().putLong((int) ShmRing.TAIL_OFFSET, 48);
            long later = ring.claim(5, 20);
            assertThat(later).isEqualTo(ShmRing.HEADER_BYTES + 48 + ShmRing.RECORD_HEADER);
            ShmRingChild.writePayload(ring.buffer(), (int) later, 20, 5);
            ring.commit(later);

            assertThat(readUntilDelivered(ring, 1)).containsExactly(5);
            assertThat(ring.unblocked()).isOne();
        }
    }

    @Test
    void theTakeoverOfUnwrittenSpaceStopsAtAHeaderWrittenButNotYetCommitted() throws IOException {
        try (ShmRing ring = ShmRing.create(directory.resolve("ring"), RING_BYTES)) {
            ring.unblockNanos(TimeUnit.MILLISECONDS.toNanos(1));
            ring.buffer().putLong((int) ShmRing.TAIL_OFFSET, 48); // a producer that died before writing its header
            long slow = ring.claim(2, 20);
            long quick = ring.claim(3, 20);
            ShmRingChild.writePayload(ring.buffer(), (int) quick, 20, 3);
            ring.commit(quick);
            awaitTrue(() -> {
                assertThat(ring.read((type, buffer, offset, length) -> { }, 10)).isZero();
                return ring.unblocked() == 1;
            });

            ShmRingChild.writePayload(ring.buffer(), (int) slow, 20, 2);
            assertThat(ring.commit(slow)).as("the slow producer's record was not taken").isTrue();
            assertThat(readUntilDelivered(ring, 2)).containsExactly(2, 3);
            assertThat(ring.unblocked()).isOne();
        }
    }

    @Test
    void anAbortedClaimBecomesPaddingThatNoHandlerSees() throws IOException {
        try (ShmRing ring = ShmRing.create(directory.resolve("ring"), 4096)) {
            long aborted = ring.claim(1, 50);
            long kept = ring.claim(2, 50);
            ring.abort(aborted);
            ring.commit(kept);
            List<Integer> types = new ArrayList<>();
            assertThat(ring.read((type, buffer, offset, length) -> types.add(type), 10)).isOne();
            assertThat(types).containsExactly(2);
            assertThat(ring.commit(aborted)).isFalse();
            assertThat(ring.unblocked()).isZero();
        }
    }

    @Test
    void everyPageOfTheRingIsMappedWhenTheOwnerCreatesItAndWhenAProducerOpensIt() throws IOException {
        Path smaps = Path.of("/proc/self/smaps");
        Assumptions.assumeTrue(Files.isReadable(smaps), "no /proc/self/smaps here (not Linux): the mapped pages cannot be counted");
        Path file = directory.resolve("ring");
        try (ShmRing owner = ShmRing.create(file, 1 << 20); ShmRing producer = ShmRing.open(file)) {
            String mapped = " " + file.toRealPath();
            List<long[]> sizeAndRss = new ArrayList<>();
            boolean inRing = false;
            for (String line : Files.readAllLines(smaps)) {
                if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                    inRing = line.endsWith(mapped);
                    if (inRing) {
                        sizeAndRss.add(new long[2]);
                    }
                } else if (inRing && line.startsWith("Size:")) {
                    sizeAndRss.getLast()[0] = kilobytes(line);
                } else if (inRing && line.startsWith("Rss:")) {
                    sizeAndRss.getLast()[1] = kilobytes(line);
                }
            }
            assertThat(sizeAndRss).as("the owner's mapping and the producer's").hasSize(2);
            for (long[] m : sizeAndRss) {
                assertThat(m[0]).as("a whole ring's kilobytes").isEqualTo((ShmRing.HEADER_BYTES + (1 << 20)) / 1024);
                assertThat(m[1]).as("kilobytes mapped before any record was written").isEqualTo(m[0]);
            }
        }
    }

    private static long kilobytes(String smapsLine) {
        return Long.parseLong(smapsLine.replaceAll("[^0-9]", ""));
    }

    @Test
    void aProducerInTheOwnersJvmSeesTheOwnerAliveThenClosed() throws IOException {
        Path file = directory.resolve("ring");
        ShmRing owner = ShmRing.create(file, 4096);
        try (ShmRing producer = ShmRing.open(file)) {
            assertThat(producer.owner()).isEqualTo(owner.owner());
            assertThat(producer.ownerAlive()).isTrue();
            assertThat(producer.ownerClosed()).isFalse();
            owner.doorbellPort(47_910);
            assertThat(producer.doorbellPort()).isEqualTo(47_910);
            assertThat(producer.takeSleeper()).as("the consumer is awake").isFalse();
            owner.sleeping(true);
            assertThat(producer.takeSleeper()).as("the first producer to look wakes it").isTrue();
            assertThat(producer.takeSleeper()).as("and only that one").isFalse();
            assertThatThrownBy(() -> ShmRing.create(file, 4096)).isInstanceOf(IOException.class).hasMessageContaining("in use");

            owner.close();
            owner.close();
            assertThat(producer.ownerClosed()).isTrue();
            assertThat(producer.ownerAlive()).isFalse();
            assertThat(file).doesNotExist();
            assertThat(owner.claim(1, 10)).isEqualTo(-1);
            assertThat(owner.read((type, buffer, offset, length) -> { }, 10)).isZero();
            assertThat(owner.hasRecords()).isFalse();
            assertThat(owner.ownerAlive()).isFalse();
            assertThatThrownBy(() -> owner.buffer().getLong(0)).as("the unmapped file").isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aRingWhoseOwnerProcessDiedIsSeenDeadAndReplaced() throws Exception {
        Path file = directory.resolve("ring");
        Process child = startChild("own", file.toString(), Integer.toString(RING_BYTES));
        try {
            long childOwner = Long.parseLong(firstLine(child));
            try (ShmRing stale = ShmRing.open(file)) {
                assertThat(stale.owner()).isEqualTo(childOwner);
                assertThat(stale.ownerAlive()).isTrue();
                assertThatThrownBy(() -> ShmRing.create(file, RING_BYTES))
                        .isInstanceOf(IOException.class).hasMessageContaining("is in use by another process");

                child.destroyForcibly();
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(stale.ownerAlive()).isFalse();
                try (ShmRing late = ShmRing.open(file)) {
                    assertThat(late.ownerAlive()).isFalse();
                    assertThat(late.ownerClosed()).isFalse();
                }

                try (ShmRing replacement = ShmRing.create(file, RING_BYTES);
                        ShmRing fresh = ShmRing.open(file)) {
                    assertThat(replacement.owner()).isNotEqualTo(childOwner);
                    assertThat(fresh.owner()).isEqualTo(replacement.owner());
                    assertThat(fresh.ownerAlive()).isTrue();
                    assertThat(stale.ownerAlive()).as("the old mapping's owner").isFalse();
                    assertThat(stale.owner()).isEqualTo(childOwner);
                }
            }
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void badFilesAndArgumentsAreRefusedWithASentence() throws IOException {
        Path missing = directory.resolve("missing");
        assertThatThrownBy(() -> ShmRing.open(missing)).isInstanceOf(IOException.class).hasMessageContaining("no ring file at");
        Path foreign = directory.resolve("foreign");
        byte[] bytes = new byte[8192];
        Arrays.fill(bytes, (byte) 0x55);
        Files.write(foreign, bytes);
        assertThatThrownBy(() -> ShmRing.open(foreign)).isInstanceOf(IOException.class).hasMessageContaining("is not a jrxe shared-memory ring");
        Path tooShort = directory.resolve("short");
        Files.write(tooShort, new byte[100]);
        assertThatThrownBy(() -> ShmRing.open(tooShort)).isInstanceOf(IOException.class).hasMessageContaining("is not a jrxe shared-memory ring");
        Path truncated = directory.resolve("truncated");
        ByteBuffer header = ByteBuffer.allocate(ShmRing.HEADER_BYTES + 4096).order(ByteOrder.nativeOrder());
        header.putLong((int) ShmRing.MAGIC_OFFSET, ShmRing.MAGIC);
        header.putInt((int) ShmRing.VERSION_OFFSET, ShmRing.VERSION);
        header.putInt((int) ShmRing.CAPACITY_OFFSET, 8192);
        Files.write(truncated, header.array());
        assertThatThrownBy(() -> ShmRing.open(truncated)).isInstanceOf(IOException.class).hasMessageContaining("damaged ring");

        assertThatThrownBy(() -> ShmRing.create(directory.resolve("odd"), 5000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShmRing.create(directory.resolve("small"), 2048)).isInstanceOf(IllegalArgumentException.class);
        try (ShmRing ring = ShmRing.create(directory.resolve("ring"), 4096)) {
            assertThatThrownBy(() -> ring.claim(1, 4096 / 2 + 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ring.claim(1, ring.maxPayloadLength() + 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ring.claim(0, 10)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ring.claim(ShmRing.PADDING, 10)).isInstanceOf(IllegalArgumentException.class);
            assertThat(ring.claim(1, ring.maxPayloadLength())).isPositive();
        }
    }

    /** Reads until {@code count} records came, waiting for the unblock time to pass; fails at the deadline. */
    private static List<Integer> readUntilDelivered(ShmRing ring, int count) {
        List<Integer> types = new ArrayList<>();
        ShmRing.RecordHandler collect = (type, buffer, offset, length) -> {
            assertThat(ShmRingChild.payloadMatches(buffer, offset, length, type)).isTrue();
            types.add(type);
        };
        awaitTrue(() -> {
            ring.read(collect, 10);
            return types.size() >= count;
        });
        return types;
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition met before the deadline").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static long seed(int producer, int sequence) {
        return ((long) producer << 32) | sequence;
    }

    private static Process startChild(String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                ShmRingChild.class.getName()));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectError(Redirect.INHERIT).start();
    }

    private static String firstLine(Process child) throws Exception {
        BufferedReader reader = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII));
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return reader.readLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).get(60, TimeUnit.SECONDS);
        assertThat(line).as("the child's first line").isNotNull();
        return line;
    }
}
