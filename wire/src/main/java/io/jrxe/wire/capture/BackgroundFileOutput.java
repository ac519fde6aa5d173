package io.jrxe.wire.capture;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Where a capture's blocks go when it is a file: whole buffers are handed to a writer thread, so
 * the NIC thread that records packets only encodes them and never waits for the disk, unless the
 * disk falls a few buffers behind (then it waits: a capture slows traffic down rather than lose
 * packets). Buffers are direct, so the file channel writes them without another copy.
 * <p>
 * Full buffers go to the disk with direct I/O (O_DIRECT) where the file system allows it: a capture of
 * whole packets writes as many bytes as the NIC moves, and through the page cache that costs the
 * kernel more CPU than the NIC threads have left (on 2 cores a 64 KiB write-bw keeps about a fifth
 * of its bandwidth through the page cache, a third to a half with direct I/O). The last buffer,
 * rarely a whole number of disk blocks, goes through the page cache. Buffers are 4 MiB because a
 * direct write waits for the disk, and on a busy machine the writer thread wakes late after each:
 * the fewer writes, the less waiting.
 */
final class BackgroundFileOutput implements PcapngWriter.BlockOutput {
    static final int BUFFER_SIZE = 1 << 22;
    private static final int BUFFERS = 4;
    private static final ByteBuffer END = ByteBuffer.allocate(0);

    private final FileChannel file;
    /** The same file opened for direct I/O, or null where that cannot be done; once a write is not whole blocks, null. */
    private FileChannel direct;
    /** Bytes in the file, while they are all written directly (the writer thread's). */
    private long directEnd;
    private final int alignment;
    private final String target;
    private final BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(BUFFERS);
    private final BlockingQueue<ByteBuffer> full = new ArrayBlockingQueue<>(BUFFERS + 1);
    private final Thread writer;
    private volatile IOException failure;

    BackgroundFileOutput(Path path) throws IOException {
        this.file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        this.target = path.toString();
        this.alignment = directIoAlignment(path);
        this.direct = alignment > 0 ? openDirect(path) : null;
        for (int i = 0; i < BUFFERS - 1; i++) {
            free.add(newBuffer());
        }
        writer = Thread.ofPlatform().daemon().name("jrxe-capture-writer").start(this::writeUntilEnd);
    }

    /** The disk block size direct I/O must keep to, or 0 when it is not a power of two that divides a buffer. */
    private static int directIoAlignment(Path path) {
        try {
            long block = Files.getFileStore(path).getBlockSize();
            return block > 0 && block <= BUFFER_SIZE && Long.bitCount(block) == 1 ? (int) block : 0;
        } catch (IOException | UnsupportedOperationException e) {
            return 0;
        }
    }

    /** Null where direct I/O is refused (tmpfs on older kernels, devices, pipes): writes then go through the page cache. */
    private static FileChannel openDirect(Path path) {
        try {
            return FileChannel.open(path, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The bytes written with direct I/O: whole buffers, before the first that was not (for tests, after close). */
    long bytesWrittenDirectly() {
        return directEnd;
    }

    /** A buffer that starts on a disk-block boundary (direct I/O needs it), BUFFER_SIZE long. */
    private ByteBuffer newBuffer() {
        int align = Math.max(alignment, 1);
        return ByteBuffer.allocateDirect(BUFFER_SIZE + align).alignedSlice(align).slice(0, BUFFER_SIZE);
    }

    @Override
    public ByteBuffer first() {
        return newBuffer();
    }

    @Override
    public ByteBuffer swap(ByteBuffer filled) {
        throwIfFailed();
        filled.flip();
        handed++;
        putUninterruptibly(full, filled);
        ByteBuffer next = takeUninterruptibly(free);
        throwIfFailed();
        return next.clear();
    }

    /** Waits until everything handed over is in the file (rare: at the end, or when a reader must see it). */
    @Override
    public void flush() {
        synchronized (progress) {
            boolean interrupted = false;
            while (written < handed && failure == null && writer.isAlive()) {
                try {
                    progress.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        throwIfFailed();
    }

    @Override
    public void close() throws IOException {
        putUninterruptibly(full, END);
        boolean interrupted = false;
        while (writer.isAlive()) {
            try {
                writer.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        try (file) {
            stopWritingDirectly();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Buffers handed over (the NIC thread's count) and buffers in the file (the writer's), guarded by progress. */
    private final Object progress = new Object();
    private volatile long handed;
    private long written;

    private void writeUntilEnd() {
        while (true) {
            ByteBuffer b = takeUninterruptibly(full);
            if (b == END) {
                return;
            }
            try {
                write(b);
            } catch (IOException e) {
                failure = e;
            }
            free.offer(b);
            synchronized (progress) {
                written++;
                progress.notifyAll();
            }
        }
    }

    /**
     * A buffer whose length is whole disk blocks goes with direct I/O, as long as every one before it did; the first
     * that is not (the last, at a flush or the end) goes through the page cache, and so does all after it. A direct
     * write the file system refuses is made again, from the same place, through the page cache.
     */
    private void write(ByteBuffer b) throws IOException {
        if (direct != null && b.remaining() % alignment == 0) {
            int start = b.position();
            try {
                long at = directEnd;
                while (b.hasRemaining()) {
                    at += direct.write(b, at);
                }
                directEnd = at;
                return;
            } catch (IOException e) {
                b.position(start);
            }
        }
        stopWritingDirectly();
        while (b.hasRemaining()) {
            file.write(b);
        }
    }

    private void stopWritingDirectly() throws IOException {
        FileChannel d = direct;
        if (d != null) {
            direct = null;
            d.close();
            file.position(directEnd);
        }
    }

    private void throwIfFailed() {
        IOException e = failure;
        if (e != null) {
            throw new CaptureException("cannot write capture " + target + ": " + PcapngWriter.describe(e), e);
        }
    }

    private static <T> void putUninterruptibly(BlockingQueue<T> queue, T item) {
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(item);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static <T> T takeUninterruptibly(BlockingQueue<T> queue) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return queue.take();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
