package io.jrxe.wire.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Where a capture's blocks go when it is a file: whole buffers are handed to a writer thread, so
 * the NIC thread that records packets only encodes them and never waits for the disk, unless the
 * disk falls a few buffers behind (then it waits: a capture slows traffic down rather than lose
 * packets). Buffers are direct, so the file channel writes them without another copy.
 */
final class BackgroundFileOutput implements PcapngWriter.BlockOutput {
    static final int BUFFER_SIZE = 1 << 20;
    private static final int BUFFERS = 4;
    private static final ByteBuffer END = ByteBuffer.allocate(0);

    private final FileChannel file;
    private final String target;
    private final BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(BUFFERS);
    private final BlockingQueue<ByteBuffer> full = new ArrayBlockingQueue<>(BUFFERS + 1);
    private final Thread writer;
    private volatile IOException failure;

    BackgroundFileOutput(Path path) throws IOException {
        this.file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        this.target = path.toString();
        for (int i = 0; i < BUFFERS - 1; i++) {
            free.add(newBuffer());
        }
        writer = Thread.ofPlatform().daemon().name("jrxe-capture-writer").start(this::writeUntilEnd);
    }

    static ByteBuffer newBuffer() {
        return ByteBuffer.allocateDirect(BUFFER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
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
        file.close();
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
                while (b.hasRemaining() && failure == null) {
                    file.write(b);
                }
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
