package io.jrxe.verbs.alloc;

import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.time.NicTime;

import java.nio.ByteBuffer;

/**
 * Two ports wired back to back with preallocated packet slots and a preallocated task ring, on
 * one thread: a network that allocates nothing itself, so that an allocation counter around
 * the engines measures the engines alone. Packets are delivered in order, none lost.
 */
final class DirectLink implements NicTime {
    private static final int SLOTS = 4096;

    private final ByteBuffer[] packets = new ByteBuffer[SLOTS];
    private final int[] lengths = new int[SLOTS];
    private final End[] targets = new End[SLOTS];
    private int head;
    private int tail;
    private final Runnable[] tasks = new Runnable[SLOTS];
    private int taskHead;
    private int taskTail;
    private long now;
    final End a;
    final End b;

    DirectLink(PeerAddress addressA, PeerAddress addressB) {
        for (int i = 0; i < SLOTS; i++) {
            packets[i] = ByteBuffer.allocateDirect(4096 + 128);
        }
        a = new End(addressA);
        b = new End(addressB);
    }

    /** One side's port. */
    final class End implements PacketPort {
        private final PeerAddress local;
        private final IcrcCalculator icrc = new IcrcCalculator();
        private final PacketInfo info = new PacketInfo();
        private PacketSink sink;
        /** The source ports the NIC prepared, and for whom: "port to peer" (control path only). */
        final java.util.List<String> prepared = new java.util.ArrayList<>();
        int sent;

        End(PeerAddress local) {
            this.local = local;
        }

        @Override
        public PeerAddress localAddress() {
            return local;
        }

        @Override
        public void send(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
            IcrcCalculator.write(packet, offset + length - 4,
                    icrc.ipv4(local.ipv4(), to.ipv4(), 0, 0x4000, srcPort, PeerAddress.ROCE_PORT, packet, offset, length));
            int slot = tail++ & (SLOTS - 1);
            if (tail - head > SLOTS) {
                throw new IllegalStateException("direct link overflow");
            }
            packets[slot].clear().put(0, packet, offset, length);
            lengths[slot] = length;
            targets[slot] = this == a ? b : a;
            info.source = local;
            sent++;
        }

        @Override
        public void loseOnSend(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
            throw new UnsupportedOperationException("the direct link loses no packet");
        }

        @Override
        public void prepareSource(PeerAddress to, int srcPort) {
            prepared.add(srcPort + " to " + to);
        }

        @Override
        public void receiver(PacketSink s) {
            sink = s;
        }

        @Override
        public void tap(PacketTap tap) {
        }

        @Override
        public PacketTap tap() {
            return null;
        }

        @Override
        public void close() {
        }
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /**
     * Timers are dropped unless a test asked to keep them ({@link #keepTimers}): the allocation tests move no time
     * forward and lose nothing, and keeping a timer would allocate.
     */
    @Override
    public void schedule(long delayNanos, Runnable task) {
        if (timers != null) {
            timers.add(new Timer(now + Math.max(0, delayNanos), timerOrder++, task));
        }
    }

    private record Timer(long due, long order, Runnable task) {
    }

    private java.util.PriorityQueue<Timer> timers;
    private long timerOrder;
    /** The end whose NIC thread is held up, and the packets that reached it meanwhile (read when it is released). */
    private End heldUp;
    private final java.util.ArrayDeque<byte[]> waitingForHeldUp = new java.util.ArrayDeque<>();

    /** From now on timers are kept, and run by {@link #advance}. */
    void keepTimers() {
        timers = new java.util.PriorityQueue<>(java.util.Comparator.comparingLong(Timer::due).thenComparingLong(Timer::order));
    }

    /**
     * Moves the clock on by {@code nanos}, running the timers due on the way, each at its time. With an end held
     * up they run late, at the end, before anything the held-up end received is read: what an event loop does when
     * it resumes after a garbage collector's pause.
     */
    void advance(long nanos) {
        long end = now + nanos;
        while (!timers.isEmpty() && timers.peek().due() <= end) {
            Timer t = timers.poll();
            now = heldUp == null ? t.due() : end;
            t.task().run();
        }
        now = end;
    }

    /** The end's NIC thread stops reading: packets to it wait, as datagrams wait in a socket. */
    void holdUp(End end) {
        heldUp = end;
    }

    /** The held-up end reads what waited for it (on the next {@link #runUntilIdle}), or, with {@code lost}, not. */
    void release(boolean lost) {
        End end = heldUp;
        heldUp = null;
        while (!waitingForHeldUp.isEmpty()) {
            byte[] packet = waitingForHeldUp.poll();
            if (!lost) {
                int slot = tail++ & (SLOTS - 1);
                packets[slot].clear().put(0, packet);
                lengths[slot] = packet.length;
                targets[slot] = end;
            }
        }
    }

    @Override
    public void execute(Runnable task) {
        tasks[taskTail++ & (SLOTS - 1)] = task;
    }

    /** Runs the queued tasks (doorbells: packets are built and queued), delivering nothing. */
    void runTasks() {
        while (taskHead != taskTail) {
            Runnable r = tasks[taskHead & (SLOTS - 1)];
            tasks[taskHead++ & (SLOTS - 1)] = null;
            r.run();
        }
    }

    /** Runs queued tasks and deliveries until there are none. */
    void runUntilIdle() {
        while (taskHead != taskTail || head != tail) {
            runTasks();
            while (head != tail) {
                int slot = head++ & (SLOTS - 1);
                End to = targets[slot];
                if (to == heldUp) {
                    byte[] packet = new byte[lengths[slot]];
                    packets[slot].get(0, packet);
                    waitingForHeldUp.add(packet);
                    continue;
                }
                End from = to == a ? b : a;
                to.info.source = from.local;
                to.info.destination = to.local;
                to.sink.packet(packets[slot], 0, lengths[slot], to.info);
            }
            // What was queued arrived together, as one read of a socket would deliver it.
            a.sink.burstEnd();
            b.sink.burstEnd();
        }
    }
}
