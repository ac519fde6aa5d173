package io.jrxe.wire.port.fault;

import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.MulticastJoinException;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.udp.RoceUdpPort;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;
import io.jrxe.wire.time.NicTime;

import java.nio.ByteBuffer;
import java.util.Map;

/**
 * A port that misbehaves on purpose: it does a {@link FaultSpec}'s faults to the packets another port sends and
 * receives, so that a peer meets loss, duplication, reordering, delay, corruption, truncation and RNR NAKs on
 * real sockets, with no root and no netem. On send a fault is done before the port beneath computes the ICRC
 * (a truncated packet or an RNR NAK is well formed) but for corruption, which spoils the packet after it (the
 * peer drops it as corrupt); a packet dropped on send is handed to the port beneath to lose
 * ({@link PacketPort#loseOnSend}), which writes the ICRC it would have sent it with, so that the capture's DROPPED
 * frame is the packet as it would have left; on receive it is done after the ICRC check, and a corrupted packet is dropped as
 * the check would have. A held packet waits on the NIC's timers ({@link NicTime}), never on a sleeping thread.
 *
 * <p>The capture records what was done as the packet's comment: a dropped packet as DROPPED, a held or changed
 * one where it is sent or received. Every fault is counted ({@code jrxe_fault_tx_dropped}, ...,
 * {@code jrxe_fault_rx_...}; {@code jrxe_fault_held_overflow} counts packets sent on without their hold when
 * {@link #MAX_HELD} were held already). A direction with no fault goes straight to the port beneath: its packets
 * cost a field read. The NIC thread's only, as every port's send and receive paths are.
 */
public final class FaultyPort implements PacketPort {
    /** Its counters' names start with this; all but {@link #HELD_OVERFLOW} count faults done. */
    public static final String COUNTER_PREFIX = "jrxe_fault_";
    /** Packets sent on without their hold because {@link #MAX_HELD} were held already. */
    public static final String HELD_OVERFLOW = COUNTER_PREFIX + "held_overflow";

    /** At most this many packets are held at once (delay, reorder); more go on at once and are counted. */
    public static final int MAX_HELD = 4096;

    /** How many faults a device's counters say its port did, both directions, every kind. */
    public static long faultsDone(Map<String, Long> counters) {
        long n = 0;
        for (Map.Entry<String, Long> c : counters.entrySet()) {
            if (c.getKey().startsWith(COUNTER_PREFIX) && !c.getKey().equals(HELD_OVERFLOW)) {
                n += c.getValue();
            }
        }
        return n;
    }

    private final PacketPort inner;
    private final NicTime time;
    private final FaultSpec spec;
    private final FaultDecider send;
    private final FaultDecider receive;
    private final boolean sendFaults;
    private final boolean receiveFaults;
    private final HeldPackets held;
    /** Where a packet sent is changed; not the received one's, which the NIC may still read while it sends. */
    private final ByteBuffer sendScratch = ByteBuffer.allocate(RoceUdpPort.MAX_DATAGRAM);
    private final ByteBuffer receiveScratch = ByteBuffer.allocate(RoceUdpPort.MAX_DATAGRAM);
    private final SingleWriterCounter heldOverflow = new SingleWriterCounter();
    private final Receiving receiving = new Receiving();
    private volatile PacketTap tap;
    private volatile PacketSink sink;
    /** The comment the NIC asked for the next packet sent (NIC thread only). */
    private String nextComment;
    /** While set, packets pass untouched and no random number is drawn (a device's warm-up through itself). */
    private volatile boolean suspended;

    private FaultyPort(PacketPort inner, FaultSpec spec, NicTime time) {
        this.inner = inner;
        this.time = time;
        this.spec = spec;
        this.send = new FaultDecider(FaultDirection.SEND, spec);
        this.receive = new FaultDecider(FaultDirection.RECEIVE, spec);
        this.sendFaults = send.active();
        this.receiveFaults = receive.active();
        this.held = new HeldPackets(MAX_HELD, RoceUdpPort.MAX_DATAGRAM, this::release);
    }

    /** {@code port} doing {@code spec}'s faults, timed by {@code time}; the port itself when there are none. */
    public static PacketPort wrap(PacketPort port, FaultSpec spec, NicTime time) {
        return spec == null || spec.none() ? port : new FaultyPort(port, spec, time);
    }

    /** The port beneath. */
    public PacketPort inner() {
        return inner;
    }

    public FaultSpec spec() {
        return spec;
    }

    /** How many packets a delay or a reordering holds now, each still to go on when its time comes (NIC thread). */
    public int holding() {
        return held.holding();
    }

    /**
     * Stops or resumes the faults. A device's warm-up runs its QPs through its own port before it meets a peer: it
     * must neither meet the faults (a rule that drops every ACK would fail it) nor use them up (a rule's count, the
     * seeded draws), so that the program's traffic meets the same faults with or without a warm-up.
     */
    public void suspend(boolean suspend) {
        suspended = suspend;
    }

    @Override
    public PeerAddress localAddress() {
        return inner.localAddress();
    }

    @Override
    public void send(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        String asked = nextComment;
        nextComment = null;
        if (!sendFaults || suspended || !send.decide(packet, offset, length)) {
            if (asked != null) {
                inner.annotateNextSent(asked);
            }
            inner.send(packet, offset, length, to, srcPort);
            return;
        }
        PacketTap t = tap;
        String comment = t == null ? null : asked == null ? send.describe() : asked + "; " + send.describe();
        if (send.drop) {
            inner.annotateNextSent(comment);
            inner.loseOnSend(packet, offset, length, to, srcPort);
            return;
        }
        int changed = changedCopy(packet, offset, length, send, sendScratch);
        ByteBuffer b = changed < 0 ? packet : sendScratch;
        int o = changed < 0 ? offset : 0;
        int l = changed < 0 ? length : changed;
        if (send.holdNanos > 0 && hold(b, o, l, false, to, srcPort, send, comment, null)) {
            return;
        }
        emit(b, o, l, to, srcPort, send.duplicate, send.corruptBit, comment);
    }

    /**
     * When the decision changes the packet's bytes (an ACK into an RNR NAK, a shorter payload, a bit to flip), copies
     * it into {@code scratch} and makes the changes there but the flip: the NIC's buffer may be sent again (a
     * resend, a replayed response), and a port's receive buffer is its own. The copy's length, or -1 for no copy.
     */
    private static int changedCopy(ByteBuffer packet, int offset, int length, FaultDecider d, ByteBuffer scratch) {
        if (d.rnrTimer < 0 && d.truncateBy == 0 && d.corruptBit < 0) {
            return -1;
        }
        scratch.put(0, packet, offset, length);
        if (d.rnrTimer >= 0) {
            scratch.put(12, (byte) (0x20 | d.rnrTimer)); // the AETH's syndrome: 001 (RNR NAK) and the timer
        }
        return length - d.truncateBy;
    }

    private void emit(ByteBuffer b, int o, int l, PeerAddress to, int srcPort, boolean duplicate, int corruptBit,
                      String comment) {
        if (duplicate) {
            // The clean copy first: the corrupted one is spoiled in the buffer after its ICRC.
            inner.annotateNextSent(comment == null ? null : comment + ": the first copy");
            inner.send(b, o, l, to, srcPort);
        }
        inner.annotateNextSent(comment);
        if (corruptBit >= 0) {
            inner.corruptNextSent(corruptBit);
        }
        inner.send(b, o, l, to, srcPort);
    }

    private boolean hold(ByteBuffer b, int o, int l, boolean received, PeerAddress to, int srcPort, FaultDecider d,
                         String comment, PacketInfo info) {
        HeldPackets.Held h = held.take();
        if (h == null) {
            heldOverflow.increment();
            return false;
        }
        h.hold(b, o, l);
        h.receive = received;
        h.to = to;
        h.sourcePort = srcPort;
        h.duplicate = d.duplicate;
        h.corruptBit = d.corruptBit;
        h.comment = comment;
        if (info != null) {
            h.info.source = info.source;
            h.info.destination = info.destination;
            h.info.sourcePort = info.sourcePort;
            h.info.ttl = info.ttl;
            h.info.trafficClass = info.trafficClass;
            h.info.flowLabel = info.flowLabel;
            h.info.identification = info.identification;
            h.info.timestampNanos = info.timestampNanos;
        }
        time.schedule(d.holdNanos, h);
        return true;
    }

    /** A held packet's time has come. */
    private void release(HeldPackets.Held h) {
        if (!h.receive) {
            emit(h.bytes, 0, h.length, h.to, h.sourcePort, h.duplicate, h.corruptBit, h.comment);
            return;
        }
        PacketSink s = sink;
        if (s == null) {
            return;
        }
        s.packet(h.bytes, 0, h.length, h.info);
        if (h.duplicate) {
            s.packet(h.bytes, 0, h.length, h.info);
        }
        s.burstEnd();
    }

    /** The port beneath loses it: a packet this port drops is captured as the port beneath would have sent it. */
    @Override
    public void loseOnSend(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        inner.annotateNextSent(nextComment);
        nextComment = null;
        inner.loseOnSend(packet, offset, length, to, srcPort);
    }

    @Override
    public void receiver(PacketSink s) {
        sink = s;
        inner.receiver(receiveFaults ? receiving : s);
    }

    @Override
    public void joinGroup(PeerAddress group) throws MulticastJoinException {
        inner.joinGroup(group);
    }

    @Override
    public void leaveGroup(PeerAddress group) {
        inner.leaveGroup(group);
    }

    @Override
    public void registerCounters(CounterRegistry registry) {
        inner.registerCounters(registry);
        send.registerCounters(registry);
        receive.registerCounters(registry);
        registry.register(HELD_OVERFLOW, heldOverflow);
    }

    @Override
    public void tap(PacketTap t) {
        tap = t;
        inner.tap(t == null || !receiveFaults ? t : receiving);
    }

    @Override
    public PacketTap tap() {
        return tap;
    }

    @Override
    public void flush() {
        inner.flush();
    }

    @Override
    public void prepareSource(PeerAddress to, int srcPort) {
        inner.prepareSource(to, srcPort);
    }

    @Override
    public void releaseSource(PeerAddress to, int srcPort) {
        inner.releaseSource(to, srcPort);
    }

    @Override
    public void annotateNextSent(String comment) {
        nextComment = comment;
    }

    @Override
    public boolean corruptNextSent(int bit) {
        return inner.corruptNextSent(bit);
    }

    @Override
    public void reportDrop(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
        inner.reportDrop(buffer, offset, length, info, reason);
    }

    @Override
    public void close() {
        inner.close();
    }

    @Override
    public String toString() {
        return inner + " with faults " + spec.text();
    }

    /**
     * Stands between the port beneath and the NIC when received packets meet faults: the sink that decides, and the
     * tap that keeps back the port's RECEIVED frame until the fault done to the packet is known, so that the frame
     * says it (the port shows a packet to its tap just before it hands it over).
     */
    private final class Receiving implements PacketSink, PacketTap {
        private boolean kept;
        private PeerAddress keptSource;
        private PeerAddress keptDestination;
        private int keptSourcePort;
        private int keptDestinationPort;
        private int keptIdentification;
        private long keptTimestamp;

        @Override
        public void packet(Direction direction, PeerAddress source, PeerAddress destination, int sourcePort,
                           int destinationPort, int identification, ByteBuffer roce, int offset, int length,
                           long timestampNanos, String comment) {
            PacketTap t = tap;
            if (t == null) {
                return;
            }
            if (direction != Direction.RECEIVED) {
                t.packet(direction, source, destination, sourcePort, destinationPort, identification, roce, offset, length,
                        timestampNanos, comment);
                return;
            }
            kept = true;
            keptSource = source;
            keptDestination = destination;
            keptSourcePort = sourcePort;
            keptDestinationPort = destinationPort;
            keptIdentification = identification;
            keptTimestamp = timestampNanos;
        }

        /** The kept RECEIVED frame, as {@code direction} with {@code comment}, of the bytes as they are now. */
        private void show(Direction direction, ByteBuffer b, int o, int l, String comment) {
            PacketTap t = tap;
            if (!kept || t == null) {
                kept = false;
                return;
            }
            kept = false;
            t.packet(direction, keptSource, keptDestination, keptSourcePort, keptDestinationPort, keptIdentification, b, o,
                    l, keptTimestamp, comment);
        }

        @Override
        public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
            PacketSink s = sink;
            if (s == null) {
                kept = false;
                return;
            }
            if (suspended || !receive.decide(buffer, offset, length)) {
                show(Direction.RECEIVED, buffer, offset, length, null);
                s.packet(buffer, offset, length, info);
                return;
            }
            String comment = tap == null ? null : receive.describe();
            if (receive.drop) {
                show(Direction.DROPPED, buffer, offset, length, comment);
                return;
            }
            int changed = changedCopy(buffer, offset, length, receive, receiveScratch);
            ByteBuffer b = changed < 0 ? buffer : receiveScratch;
            int o = changed < 0 ? offset : 0;
            int l = changed < 0 ? length : changed;
            if (receive.corruptBit >= 0) {
                int at = Math.min(receive.corruptBit >>> 3, l - 1);
                receiveScratch.put(at, (byte) (receiveScratch.get(at) ^ (1 << (receive.corruptBit & 7))));
                show(Direction.DROPPED, b, o, l, comment == null ? null : comment + "; dropped: "
                        + DropReason.BAD_ICRC.description());
                s.dropped(b, o, l, info, DropReason.BAD_ICRC);
                return;
            }
            if (receive.markCe && Ecn.of(info.trafficClass) != Ecn.NOT_ECT) {
                info.trafficClass |= Ecn.CE;
            }
            show(Direction.RECEIVED, b, o, l, comment);
            if (receive.holdNanos > 0 && hold(b, o, l, true, null, 0, receive, comment, info)) {
                return;
            }
            s.packet(b, o, l, info);
            if (receive.duplicate) {
                s.packet(b, o, l, info);
            }
        }

        @Override
        public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
            PacketSink s = sink;
            if (s != null) {
                s.dropped(buffer, offset, length, info, reason);
            }
        }

        @Override
        public void burstEnd() {
            PacketSink s = sink;
            if (s != null) {
                s.burstEnd();
            }
        }
    }
}
