package io.jrxe.wire.port.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileChannel.MapMode;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A ring of variable-length records in a memory-mapped file that any number of producers, in any number of
 * threads and processes on one host, append to without locks, and that one consumer reads in claim order.
 *
 * <p>Agrona's ManyToOneRingBuffer would do this job, but it is not used because Agrona 2 needs
 * {@code jdk.internal.misc.Unsafe} exported and {@code sun.misc.Unsafe}'s memory methods warn on JDK 24 and later;
 * this ring uses only the FFM API (a mapped {@link MemorySegment} and {@link VarHandle}s on aligned offsets).
 * Mapping a file into an {@link Arena} is not a restricted method, so no {@code --enable-native-access} is needed.
 *
 * <h2>File layout</h2>
 * A {@value #HEADER_BYTES}-byte header (magic, version, data capacity, owner incarnation, closed flag, the consumer's
 * doorbell port, then the tail, the head, the consumer's sleeping flag and its request for ICRCs each alone on its own
 * 128-byte line so that producers and the consumer do not share a cache line), then {@code capacity} data bytes.
 * Positions only grow; a position's index in the data area is {@code position & (capacity - 1)}. Numbers are in the
 * machine's byte order.
 *
 * <h2>Records</h2>
 * A record is an 8-byte header, {@code [int length][int type]}, where length counts header and payload, followed
 * by the payload; records start 8-byte aligned. A record never wraps: when it does not fit before the end of the
 * data area, its claim also covers a {@linkplain #PADDING padding} record to the end, and the record starts at
 * index 0. A claimed record's length is negative until the producer commits it.
 *
 * <h2>Coordinates</h2>
 * Offsets that {@link #claim} returns and that the {@link RecordHandler} receives are file offsets: indexes into
 * {@link #buffer()}, which views the whole file. Use only the buffer's absolute accessors, since it is shared.
 *
 * <h2>Abandoned claims</h2>
 * A producer that dies between claim and commit would stop the consumer for ever, so the consumer turns a record
 * that has stayed uncommitted at the head for longer than the unblock time into padding. Producers write a
 * header and commit it with compare-and-sets that the takeover also uses, so either the producer or the consumer
 * wins, never both: a producer that loses at its header gets -1 from claim and writes nothing, one that loses at
 * commit gets false. The unblock time is meant to be far longer than any live producer's claim-to-commit time:
 * a producer that stalls past it between claim and header, or while writing its payload, may still write into
 * space the ring has freed (and so spoil a later record), as with any takeover that cannot stop the producer. So
 * before its first takeover the consumer {@linkplain #askForIcrcs asks for every packet's ICRC}, which shows a spoiled
 * record.
 *
 * <h2>Owner liveness</h2>
 * The consumer that created the file holds an exclusive lock on its first byte until it closes; a producer
 * probes that lock ({@link #ownerAlive()}). POSIX locks belong to a process and are dropped when the process
 * closes <em>any</em> descriptor of the file, so a producer opened in the owner's own JVM maps the file through
 * the owner's channel instead of opening one, and nothing else in that JVM may open the ring's file.
 *
 * <h2>Cache lines</h2>
 * Producers and the consumer run on different cores, and every cache line one writes and the other then reads moves
 * between them, a few hundred nanoseconds on a virtual machine. So the consumer reads the tail only when the head's
 * header is claimed or on every {@value #EMPTY_LOOKS_PER_TAIL_READ}th look at an empty ring (a stall is timed in
 * seconds), a producer reads the head only when the head it saw last leaves no room, and the consumer zeroes and
 * hands back the space of the records it read at its next {@link #read}, not before it returns: the caller acts on
 * what it read (a NIC answers a packet) before it pays for the lines the producer still holds. A NIC's loop reads once
 * more after every read that found work, so it never sleeps on space it has not handed back.
 *
 * <p>Threads: claim, commit, abort and hasRecords from any thread; read from one consumer thread at a time.
 * {@link #close()} must not race with other calls on the same object: after it, every method returns a
 * "nothing" answer (claim -1, read 0, commit false) and the buffer throws {@link IllegalStateException}.
 */
public final class ShmRing implements AutoCloseable {
    /** Bytes of a record's header: the int length and the int type. */
    public static final int RECORD_HEADER = 8;
    /** Type of a padding record, which fills space and never reaches a handler. */
    public static final int PADDING = -1;

    /** Bytes before the data area. */
    static final int HEADER_BYTES = 4096;
    static final long MAGIC = 0x6A7278655F73686DL; // "jrxe_shm"
    static final int VERSION = 3;
    static final int MIN_CAPACITY = 4096;
    static final int MAX_CAPACITY = 1 << 30;
    /**
     * How long a record may stay uncommitted at the head before the consumer takes it over as its producer's death:
     * 1 s. On a loaded 2-core machine a live producer descheduled between claim and commit stayed away past 100 ms;
     * its record is then lost (commit false, counted by {@link #unblocked()}), and what it still writes may spoil a
     * later record, which a packet's ICRC check then drops ({@link #askForIcrcs}).
     */
    static final long DEFAULT_UNBLOCK_NANOS = 1_000_000_000L;

    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 8;
    static final long CAPACITY_OFFSET = 12;
    static final long OWNER_OFFSET = 16;
    static final long CLOSED_OFFSET = 24;
    static final long DOORBELL_OFFSET = 40;
    static final long TAIL_OFFSET = 128;
    static final long HEAD_OFFSET = 256;
    /** 1 while the consumer sleeps; on a line of its own, since producers read it after every commit. */
    static final long SLEEPING_OFFSET = 384;
    /** 1 once the consumer checks every record's ICRC ({@link #askForIcrcs}); on a line of its own, read at every send. */
    static final long ICRCS_WANTED_OFFSET = 512;

    private static final int ALIGNMENT = 8;
    /** Power of two: how often a look at an empty ring reads the tail, to time a producer that claimed and wrote nothing. */
    static final int EMPTY_LOOKS_PER_TAIL_READ = 64;
    private static final long LENGTH_MASK = 0xFFFF_FFFFL;
    /** A word of unwritten space the consumer took over; freed with the padding that covers it. */
    private static final long TAKEN = header(PADDING, 0);

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final MemorySegment ZEROES = MemorySegment.ofArray(new byte[4096]);

    /** Rings created by this JVM and not yet closed, by file key: producers in this JVM borrow their channel. */
    private static final ConcurrentHashMap<Object, ShmRing> OWNED_HERE = new ConcurrentHashMap<>();

    /** Whether this object created the ring (the consumer) or mapped an existing one (a producer). */
    private enum Role { OWNER, PRODUCER }

    private final Role role;
    private final Path file;
    private final Object fileKey;
    private final Arena arena;
    private final MemorySegment segment;
    private final ByteBuffer buffer;
    private final int capacity;
    private final int mask;
    /** This object's own descriptor of the file; null for a producer that borrows its owner's (same JVM). */
    private final FileChannel channel;
    /** The owner's lock (owner only). */
    private final FileLock ownerLock;
    /** The owning ring in this JVM that a producer borrowed the channel of, or null. */
    private final ShmRing ownerHere;
    private long unblockNanos = DEFAULT_UNBLOCK_NANOS;

    private volatile boolean closed;

    /** The head a producer (any thread of this object) read last; heads only grow, so a claim that fits with it fits. */
    private volatile long headSeen;

    // consumer state: the uncommitted header that stopped the last read, and since when
    private long stallPosition = -1;
    private long stallHeader;
    private long stallSinceNanos;
    /** Looks at an empty ring since the tail was last read. */
    private int emptyLooks;
    /** Where the records handed to the handler so far end (volatile for {@link #hasRecords} on other threads). */
    private volatile long consumed;
    /** Where the space handed back to the producers ends: the head. */
    private long freed;
    /** Written by the consumer only, read by anyone (statistics). */
    private volatile long unblocked;

    private ShmRing(Role role, Path file, Object fileKey, Arena arena, MemorySegment segment, FileChannel channel,
            FileLock ownerLock, ShmRing ownerHere) {
        this.role = role;
        this.file = file;
        this.fileKey = fileKey;
        this.arena = arena;
        this.segment = segment;
        this.capacity = (int) segment.byteSize() - HEADER_BYTES;
        this.mask = capacity - 1;
        this.buffer = segment.asByteBuffer().order(ByteOrder.nativeOrder());
        // Every page mapped now rather than at its first touch: a ring laps only after megabytes, so a latency test
        // would otherwise take a page fault in the producer and another in the consumer every 4 KiB of records
        // (write-lat -s 2: every 32nd message 10-20 us late, twice the tail the machine's own pauses leave).
        segment.load();
        this.channel = channel;
        this.ownerLock = ownerLock;
        this.ownerHere = ownerHere;
    }

    /**
     * Creates (or replaces) the ring file as its one consumer: writes it whole to a temporary file in the same
     * directory, then moves it into place atomically, so that producers who still map an older file of that name
     * keep their own and never see a half-made one. Takes an exclusive lock on the file's first byte, held until
     * {@link #close()}, which is how producers tell a live owner from a dead one. The file is readable and
     * writable by its user only.
     *
     * @param capacity data bytes: a power of two from 4096 to {@code 1 << 30}
     * @throws IllegalArgumentException for a capacity that is not such a power of two
     * @throws IOException when a live ring already has that name ("... is in use by another process"), or the
     *         file cannot be written
     */
    public static ShmRing create(Path file, int capacity) throws IOException {
        if (!isCapacity(capacity)) {
            throw new IllegalArgumentException(
                    "ring capacity must be a power of two from " + MIN_CAPACITY + " to " + MAX_CAPACITY + ", not " + capacity);
        }
        Path target = file.toAbsolutePath();
        try (FileChannel previous = lockStaleRing(target)) {
            Path temporary = Files.createTempFile(target.getParent(), target.getFileName() + ".", ".creating");
            FileChannel channel = null;
            Arena arena = null;
            try {
                channel = FileChannel.open(temporary, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock lock = channel.lock(0, 1, false);
                long size = (long) HEADER_BYTES + capacity;
                channel.write(ByteBuffer.allocate(1), size - 1);
                arena = Arena.ofShared();
                MemorySegment segment = channel.map(MapMode.READ_WRITE, 0, size, arena);
                INT.set(segment, VERSION_OFFSET, VERSION);
                INT.set(segment, CAPACITY_OFFSET, capacity);
                LONG.set(segment, OWNER_OFFSET, new SecureRandom().nextLong());
                LONG.setRelease(segment, MAGIC_OFFSET, MAGIC);
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
                Object key = Files.readAttributes(target, BasicFileAttributes.class).fileKey();
                ShmRing ring = new ShmRing(Role.OWNER, target, key, arena, segment, channel, lock, null);
                if (key != null) {
                    OWNED_HERE.put(key, ring);
                }
                return ring;
            } catch (IOException | RuntimeException e) {
                if (arena != null) {
                    arena.close();
                }
                if (channel != null) {
                    channel.close();
                }
                Files.deleteIfExists(temporary);
                throw e;
            }
        }
    }

    /**
     * Locks the ring file that {@code target} names, when there is one, to show that its owner is gone; the lock
     * is held (through the returned channel) until the new file has replaced it. Null when there is no file.
     */
    private static FileChannel lockStaleRing(Path target) throws IOException {
        Object before;
        try {
            before = Files.readAttributes(target, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            return null;
        }
        if (before != null && OWNED_HERE.containsKey(before)) {
            throw new IOException(target + " is in use by a ring of this process");
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(target, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            return null;
        }
        try {
            FileLock lock = channel.tryLock(0, 1, false);
            Object after = Files.readAttributes(target, BasicFileAttributes.class).fileKey();
            if (lock == null || !Objects.equals(before, after)) {
                throw new IOException(target + " is in use by another process");
            }
            return channel;
        } catch (OverlappingFileLockException e) {
            channel.close();
            throw new IOException(target + " is in use by this process (a producer is probing its owner)", e);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Maps an existing ring as a producer.
     *
     * @throws IOException with a sentence for a missing file, or one that is not a ring of this version and size
     */
    public static ShmRing open(Path file) throws IOException {
        Path target = file.toAbsolutePath();
        Object key;
        try {
            key = Files.readAttributes(target, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            throw new IOException("no ring file at " + target, e);
        }
        ShmRing ownerHere = key == null ? null : OWNED_HERE.get(key);
        FileChannel channel = ownerHere != null ? ownerHere.channel
                : FileChannel.open(target, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileChannel ownChannel = ownerHere != null ? null : channel;
        Arena arena = null;
        try {
            long size = channel.size();
            ByteBuffer header = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
            while (header.hasRemaining() && channel.read(header, header.position()) >= 0) {
                // a positional read: the channel may be shared with the owner
            }
            if (size < HEADER_BYTES || header.getLong(0) != MAGIC) {
                throw new IOException(target + " is not a jrxe shared-memory ring (" + size + " bytes, no ring header)");
            }
            int version = header.getInt((int) VERSION_OFFSET);
            if (version != VERSION) {
                throw new IOException(target + " is a ring of version " + version + "; this jrxe reads version " + VERSION);
            }
            int capacity = header.getInt((int) CAPACITY_OFFSET);
            if (!isCapacity(capacity) || size != (long) HEADER_BYTES + capacity) {
                throw new IOException(target + " is a damaged ring: capacity " + capacity + " in a file of " + size + " bytes");
            }
            arena = Arena.ofShared();
            MemorySegment segment = channel.map(MapMode.READ_WRITE, 0, size, arena);
            return new ShmRing(Role.PRODUCER, target, key, arena, segment, ownChannel, null, ownerHere);
        } catch (IOException | RuntimeException e) {
            if (arena != null) {
                arena.close();
            }
            if (ownChannel != null) {
                ownChannel.close();
            }
            throw e;
        }
    }

    /** Sets how long a record may stay uncommitted at the head before {@link #read} takes it over. */
    void unblockNanos(long nanos) {
        this.unblockNanos = nanos;
    }

    /** The longest payload {@link #claim} accepts: half the capacity less a record header, so a record always fits an empty ring. */
    public int maxPayloadLength() {
        return capacity / 2 - RECORD_HEADER;
    }

    /**
     * Claims room for a record; the caller writes the payload into {@link #buffer()} and then {@link #commit}s
     * (or {@link #abort}s) it. Never waits.
     *
     * @param type the caller's record type, greater than 0
     * @param payloadLength bytes of payload, 0 to {@link #maxPayloadLength()}
     * @return the file offset where the payload starts, or -1 when the ring has no room now (or is closed)
     */
    public long claim(int type, int payloadLength) {
        if (type <= 0) {
            throw new IllegalArgumentException("record type must be greater than 0, not " + type);
        }
        if (payloadLength < 0 || payloadLength > maxPayloadLength()) {
            throw new IllegalArgumentException("payload length must be 0 to " + maxPayloadLength() + ", not " + payloadLength);
        }
        if (closed) {
            return -1;
        }
        int length = RECORD_HEADER + payloadLength;
        int aligned = align(length);
        long tail;
        int index;
        int padding;
        do {
            tail = (long) LONG.getVolatile(segment, TAIL_OFFSET);
            index = (int) tail & mask;
            int toEnd = capacity - index;
            padding = aligned > toEnd ? toEnd : 0;
            if (padding + aligned > capacity - (tail - headSeen)) {
                long head = (long) LONG.getVolatile(segment, HEAD_OFFSET);
                headSeen = head;
                if (padding + aligned > capacity - (tail - head)) {
                    return -1;
                }
            }
        } while (!LONG.compareAndSet(segment, TAIL_OFFSET, tail, tail + padding + aligned));
        if (padding != 0) {
            // fails only when the consumer already turned this unwritten space into padding itself
            LONG.compareAndSet(segment, dataOffset(index), 0L, header(PADDING, padding));
            index = 0;
        }
        long recordOffset = dataOffset(index);
        if (!LONG.compareAndSet(segment, recordOffset, 0L, header(type, -length))) {
            return -1; // the consumer took this space over as abandoned before the header was written
        }
        return recordOffset + RECORD_HEADER;
    }

    /** The whole mapped file as one buffer in the machine's byte order; offsets are file offsets. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /**
     * Commits the record whose payload starts at {@code payloadOffset}: the consumer may read it from now on.
     *
     * @return false when the consumer took the record over as abandoned (the record is lost), or the ring is closed
     */
    public boolean commit(long payloadOffset) {
        if (closed) {
            return false;
        }
        long recordOffset = payloadOffset - RECORD_HEADER;
        long claimed = (long) LONG.getOpaque(segment, recordOffset);
        int length = (int) claimed;
        return length < 0 && LONG.compareAndSet(segment, recordOffset, claimed, header((int) (claimed >>> 32), -length));
    }

    /** Gives up a claimed record: it becomes padding. For a producer that cannot fill what it claimed. */
    public void abort(long payloadOffset) {
        if (closed) {
            return;
        }
        long recordOffset = payloadOffset - RECORD_HEADER;
        long claimed = (long) LONG.getOpaque(segment, recordOffset);
        int length = (int) claimed;
        if (length < 0) {
            LONG.compareAndSet(segment, recordOffset, claimed, header(PADDING, -length));
        }
    }

    /**
     * Frees the space of the records the last call handed over, then reads up to {@code max} committed records in claim
     * order, handing each payload to the handler; their space is freed at the next call.
     * Skips padding. Takes over a record that has stayed uncommitted at the head for longer than the unblock time.
     * Consumer only.
     *
     * @return how many records (not paddings) were handed to the handler
     */
    public int read(RecordHandler handler, int max) {
        if (closed) {
            return 0;
        }
        handBack();
        long head = freed;
        long position = head;
        int records = 0;
        try {
            // a batch's space is freed only by the next read, so past one lap it would meet its own records again
            while (records < max && position - head < capacity) {
                int index = (int) position & mask;
                long header = (long) LONG.getAcquire(segment, dataOffset(index));
                int length = (int) header;
                if (length <= 0) {
                    if (position == head && (header != 0 || (++emptyLooks & (EMPTY_LOOKS_PER_TAIL_READ - 1)) == 0)) {
                        watchStall(position, header);
                    }
                    break;
                }
                position += align(length);
                int type = (int) (header >>> 32);
                if (type != PADDING) {
                    records++;
                    handler.record(type, buffer, (int) dataOffset(index) + RECORD_HEADER, length - RECORD_HEADER);
                }
            }
        } finally {
            if (position != head) {
                consumed = position;
                if (position - head == capacity) {
                    handBack(); // a whole lap in one batch: the next record's header would be one of these, unzeroed
                }
            }
        }
        return records;
    }

    /** Zeroes the space of the records read so far and hands it back to the producers. */
    private void handBack() {
        long consumed = this.consumed;
        if (consumed != freed) {
            release(freed, consumed);
            freed = consumed;
        }
    }

    /** Zeroes the consumed space [head, position) and hands it back to the producers. */
    private void release(long head, long position) {
        int from = (int) head & mask;
        long bytes = position - head;
        long firstPart = Math.min(bytes, capacity - from);
        zero(dataOffset(from), firstPart);
        if (bytes > firstPart) {
            zero(HEADER_BYTES, bytes - firstPart);
        }
        LONG.setRelease(segment, HEAD_OFFSET, position);
    }

    /** Zeroes bytes from offset by copying a zero block, which unlike a slice's fill allocates nothing. */
    private void zero(long offset, long bytes) {
        for (long done = 0; done < bytes; done += ZEROES.byteSize()) {
            MemorySegment.copy(ZEROES, 0, segment, offset + done, Math.min(ZEROES.byteSize(), bytes - done));
        }
    }

    /** Times how long the header at the head has stayed uncommitted, and takes it over once that is too long. */
    private void watchStall(long position, long header) {
        long tail = (long) LONG.getVolatile(segment, TAIL_OFFSET);
        if (tail == position) {
            stallPosition = -1;
            return;
        }
        long now = System.nanoTime();
        if (position != stallPosition || header != stallHeader) {
            stallPosition = position;
            stallHeader = header;
            stallSinceNanos = now;
        } else if (now - stallSinceNanos > unblockNanos && askForIcrcs() && takeOver(position, header, tail)) {
            unblocked++;
            stallPosition = -1;
        }
    }

    /**
     * Turns the uncommitted record at {@code position} into padding: a claimed record of its claimed length, or,
     * when its producer never wrote the header, the unwritten space up to the next header written (or up to the
     * tail, or the end of the data area). That space is taken word by word with a compare-and-set from zero, the
     * same one a producer writes its header with, so a producer that writes its header late either stops the
     * scan there (its record is kept) or finds its word taken and writes nothing ({@link #claim} answers -1).
     */
    private boolean takeOver(long position, long header, long tail) {
        int index = (int) position & mask;
        long offset = dataOffset(index);
        int length = (int) header;
        if (length < 0) {
            return LONG.compareAndSet(segment, offset, header, header(PADDING, -length));
        }
        if (!LONG.compareAndSet(segment, offset, 0L, TAKEN)) {
            return false; // its producer wrote the header just now: time it afresh
        }
        long limit = Math.min(capacity, index + (tail - position));
        int end = index + ALIGNMENT;
        while (end < limit && LONG.compareAndSet(segment, dataOffset(end), 0L, TAKEN)) {
            end += ALIGNMENT;
        }
        LONG.setRelease(segment, offset, header(PADDING, end - index));
        return true;
    }

    /** Receives one record's payload from {@link #read}. */
    @FunctionalInterface
    public interface RecordHandler {
        /**
         * @param type the producer's record type (greater than 0)
         * @param buffer the ring's {@link #buffer()}; valid only during this call
         * @param offset file offset of the payload's first byte
         * @param length payload bytes
         */
        void record(int type, ByteBuffer buffer, int offset, int length);
    }

    /** Whether read would find a committed record now (two loads), for a consumer deciding whether to sleep. */
    public boolean hasRecords() {
        if (closed) {
            return false;
        }
        return (int) (long) LONG.getAcquire(segment, dataOffset((int) consumed & mask)) > 0;
    }

    /** The owner's incarnation: a random number the creating consumer wrote, new for every create. */
    public long owner() {
        return closed ? 0 : (long) LONG.getAcquire(segment, OWNER_OFFSET);
    }

    /**
     * Whether the owner closed the ring; a producer then drops its mapping and opens the file by name again later.
     * True too once this object is closed.
     */
    public boolean ownerClosed() {
        return closed || (int) INT.getAcquire(segment, CLOSED_OFFSET) != 0;
    }

    /**
     * Whether the process that created the ring still holds it: probes the owner's lock with a shared try-lock that
     * is released at once (acquired: the owner is gone; held by another process or by this JVM: alive). A system
     * call, so callers rate-limit it. A probe that meets another probe of the same file in this JVM says alive.
     * False once this object is closed.
     */
    public boolean ownerAlive() {
        if (role == Role.OWNER || closed) {
            return !closed;
        }
        if (ownerHere != null) {
            return !ownerHere.closed;
        }
        try {
            FileLock probe = channel.tryLock(0, 1, true);
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Owner: the UDP port on 127.0.0.1 where the consumer's waiter listens for a producer's wake-up (0: none), which
     * a producer in another process rings when it finds the consumer asleep ({@link #takeSleeper}).
     */
    public void doorbellPort(int port) {
        if (!closed) {
            INT.setRelease(segment, DOORBELL_OFFSET, port);
        }
    }

    /** The consumer's doorbell port on 127.0.0.1, or 0 when it has none. */
    public int doorbellPort() {
        return closed ? 0 : (int) INT.getAcquire(segment, DOORBELL_OFFSET);
    }

    /**
     * Consumer: says that it is about to sleep, or that it is awake. A volatile write, so that its next look at the
     * ring ({@link #hasRecords}) sees every record whose producer found it awake: the producer commits before it
     * reads the flag.
     */
    public void sleeping(boolean asleep) {
        if (!closed) {
            INT.setVolatile(segment, SLEEPING_OFFSET, asleep ? 1 : 0);
        }
    }

    /**
     * Producer, after a commit: whether the consumer sleeps. One producer per sleep gets true, and has to wake it
     * (ring its doorbell); the others go on.
     */
    public boolean takeSleeper() {
        return !closed && (int) INT.getVolatile(segment, SLEEPING_OFFSET) == 1
                && INT.compareAndSet(segment, SLEEPING_OFFSET, 1, 0);
    }

    /**
     * Consumer: asks every producer to write each packet's ICRC into its record from now on, for good. The consumer
     * asks once it checks ICRCs itself: a program that checks a wire's bytes, or a ring that took a record over, since
     * its producer may still write into the space freed and spoil a later record, which only its ICRC then shows.
     *
     * @return true, so that a condition can ask before it acts
     */
    public boolean askForIcrcs() {
        if (!closed) {
            INT.setVolatile(segment, ICRCS_WANTED_OFFSET, 1);
        }
        return true;
    }

    /** Whether the consumer asked for every packet's ICRC ({@link #askForIcrcs}). */
    public boolean icrcsWanted() {
        return !closed && (int) INT.getOpaque(segment, ICRCS_WANTED_OFFSET) != 0;
    }

    /** Data bytes: a power of two. */
    public int capacity() {
        return capacity;
    }

    /** How many abandoned records this consumer has taken over. */
    public long unblocked() {
        return unblocked;
    }

    /** The ring's file, as an absolute path. */
    public Path file() {
        return file;
    }

    /**
     * The owner marks the ring closed, deletes the file if it is still this incarnation's, releases its lock and
     * unmaps; a producer unmaps only. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (role == Role.OWNER) {
            INT.setRelease(segment, CLOSED_OFFSET, 1);
            if (fileKey != null) {
                OWNED_HERE.remove(fileKey, this);
                deleteIfStillOurs();
            }
        }
        arena.close();
        try {
            if (ownerLock != null) {
                ownerLock.release();
            }
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // the descriptor is gone either way, and with it the lock
        }
    }

    private void deleteIfStillOurs() {
        try {
            if (fileKey.equals(Files.readAttributes(file, BasicFileAttributes.class).fileKey())) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // already gone or replaced: nothing of ours to delete
        }
    }

    private static boolean isCapacity(int capacity) {
        return capacity >= MIN_CAPACITY && capacity <= MAX_CAPACITY && Integer.bitCount(capacity) == 1;
    }

    private static long dataOffset(int index) {
        return HEADER_BYTES + (long) index;
    }

    private static long header(int type, int length) {
        return ((long) type << 32) | (length & LENGTH_MASK);
    }

    private static int align(int length) {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }
}
