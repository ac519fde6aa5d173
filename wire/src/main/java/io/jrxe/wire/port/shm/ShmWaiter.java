package io.jrxe.wire.port.shm;

import io.jrxe.wire.port.PortWaiter;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for a record in a shared-memory port's ring. A producer in another process cannot unpark this thread, so a
 * sleeping consumer listens on a doorbell: a UDP socket on 127.0.0.1 whose port the ring's header gives. Before it
 * blocks in the doorbell's selector it says it sleeps ({@link ShmRing#sleeping}) and looks at the ring once more;
 * the first producer to commit a record after that finds it asleep and sends the doorbell one datagram
 * ({@link ShmPort}), which wakes it as a datagram wakes a UDP port's waiter. A consumer that works never sleeps, so a
 * stream of packets rings no bell. Where no loopback socket can be had, the waiter looks at the ring between pauses
 * that grow from {@link #FIRST_PAUSE_NANOS} to {@link #LONGEST_PAUSE_NANOS} instead. Any consumer of a ring may wait
 * with it: a device's port, or the conformance tester's end.
 */
public final class ShmWaiter implements PortWaiter {
    static final long FIRST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    static final long LONGEST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(1000);
    /**
     * The longest sleep on the doorbell: a ring that never comes (its datagram lost, or a producer that could not open
     * a socket to send it) costs no more than this.
     */
    static final long LONGEST_SLEEP_MILLIS = 100;
    private final ShmRing inbox;
    /** The doorbell and its selector, or null (pauses instead). */
    private final DatagramChannel doorbell;
    private final Selector selector;
    private final ByteBuffer drain = ByteBuffer.allocateDirect(64);
    private volatile Thread waiting;
    private volatile boolean woken;
    private volatile boolean closed;

    public ShmWaiter(ShmRing inbox) {
        this.inbox = inbox;
        DatagramChannel ch = null;
        Selector sel = null;
        try {
            ch = DatagramChannel.open(StandardProtocolFamily.INET);
            ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            ch.configureBlocking(false);
            sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
            inbox.doorbellPort(((InetSocketAddress) ch.getLocalAddress()).getPort());
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch, sel);
            ch = null;
            sel = null;
        }
        this.doorbell = ch;
        this.selector = sel;
    }

    /** Whether producers can wake this waiter (else it looks at the ring between pauses). */
    boolean hasDoorbell() {
        return doorbell != null;
    }

    @Override
    public void await(long timeoutNanos) throws IOException {
        if (doorbell == null) {
            pause(timeoutNanos);
            return;
        }
        inbox.sleeping(true);
        VarHandle.fullFence(); // the flag is out before the ring is looked at: a producer that commits after the look rings
        try {
            if (!closed && !inbox.hasRecords()) {
                // select's timeout is in milliseconds: round up, a timer never fires early
                long millis = timeoutNanos == 0 ? LONGEST_SLEEP_MILLIS : Math.max(1, (timeoutNanos + 999_999) / 1_000_000);
                selector.select(Math.min(millis, LONGEST_SLEEP_MILLIS));
                selector.selectedKeys().clear();
                while (doorbell.receive(drain.clear()) != null) {
                    // each ring of the bell is one datagram; the records are in the ring
                }
            }
        } finally {
            inbox.sleeping(false);
        }
    }

    private void pause(long timeoutNanos) {
        long deadline = timeoutNanos == 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        waiting = Thread.currentThread();
        try {
            long pause = FIRST_PAUSE_NANOS;
            while (!closed && !inbox.hasRecords()) {
                if (woken) {
                    woken = false; // taken only when seen, as a selector's wake-up: one that comes later stays for the next wait
                    return;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                LockSupport.parkNanos(this, Math.min(pause, left));
                pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
            }
        } finally {
            waiting = null;
        }
    }

    @Override
    public void wake() {
        if (selector != null) {
            selector.wakeup();
            return;
        }
        woken = true;
        LockSupport.unpark(waiting);
    }

    @Override
    public void close() {
        closed = true;
        wake();
        inbox.doorbellPort(0);
        closeQuietly(doorbell, selector);
    }

    private static void closeQuietly(DatagramChannel ch, Selector sel) {
        try {
            if (sel != null) {
                sel.close();
            }
            if (ch != null) {
                ch.close();
            }
        } catch (IOException ignored) {
            // closing: the descriptors are released either way
        }
    }
}
