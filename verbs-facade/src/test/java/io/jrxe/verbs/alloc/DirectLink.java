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

    /** Timers never fire here: the test moves no time forward, and nothing is lost. */
    @Override
    public void schedule(long delayNanos, Runnable task) {
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
