package io.jrxe.wire.capture;

import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Capture mode: frames every packet a port sends, receives or drops in the Ethernet, IP and UDP
 * headers that went on the wire (as far as the host lets jrxe know them) and writes it to a
 * pcapng file, one interface per port, a drop's reason as the packet's comment. Bounded by a
 * packet count and a byte count: past either, packets are counted but not written.
 * Several NIC threads may share one tap.
 */
public final class CaptureTap {
    private final PcapngWriter writer;
    private final long maxPackets;
    private final long maxBytes;
    private final RoceFramer framer = new RoceFramer();
    private final int snapLength;
    /** The Ethernet, IP and UDP headers of the packet being written; its RoCE bytes are copied from where they are. */
    private final ByteBuffer headers = ByteBuffer.allocate(128);
    /** Wall-clock nanoseconds minus the ports' clock, read once: packets keep the order and spacing they had. */
    private final long epochOffsetNanos;
    private long skipped;

    /** A capture of ports whose clock is {@link System#nanoTime()} (real sockets). */
    public CaptureTap(PcapngWriter writer, long maxPackets, long maxBytes) {
        this(writer, maxPackets, maxBytes, 0, System.nanoTime());
    }

    /**
     * As {@link #CaptureTap(PcapngWriter, long, long)}, keeping at most {@code snapLength} bytes of each frame
     * (0: whole frames): at full rate a whole-packet capture writes as many bytes as the NIC moves.
     */
    public CaptureTap(PcapngWriter writer, long maxPackets, long maxBytes, int snapLength) {
        this(writer, maxPackets, maxBytes, snapLength, System.nanoTime());
    }

    /** A capture of ports whose clock reads {@code portClockNow} at this moment (a simulated network's virtual time). */
    public CaptureTap(PcapngWriter writer, long maxPackets, long maxBytes, int snapLength, long portClockNow) {
        if (snapLength < 0) {
            throw new IllegalArgumentException("snapshot length " + snapLength + " is negative");
        }
        this.writer = writer;
        this.snapLength = snapLength;
        this.maxPackets = maxPackets;
        this.maxBytes = maxBytes;
        java.time.Instant now = java.time.Instant.now();
        this.epochOffsetNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano() - portClockNow;
    }

    /** A tap for one port: its packets go to their own interface of the capture. */
    public synchronized PacketTap forPort(String name) {
        int interfaceId = writer.addInterface(name, LinkType.ETHERNET, snapLength);
        return new PacketTap() {
            @Override
            public void packet(Direction direction, PeerAddress source, PeerAddress destination, int sourcePort,
                               int destinationPort, int identification, ByteBuffer roce, int offset, int length,
                               long timestampNanos, String comment) {
                write(interfaceId, source, destination, sourcePort, destinationPort, identification, 0, roce, offset,
                        length, timestampNanos, comment);
            }

            @Override
            public void packet(Direction direction, PeerAddress source, PeerAddress destination, int sourcePort,
                               int destinationPort, int identification, int trafficClass, ByteBuffer roce, int offset,
                               int length, long timestampNanos, String comment) {
                write(interfaceId, source, destination, sourcePort, destinationPort, identification, trafficClass, roce,
                        offset, length, timestampNanos, comment);
            }
        };
    }

    private synchronized void write(int interfaceId, PeerAddress source, PeerAddress destination, int sourcePort,
                                    int destinationPort, int identification, int trafficClass, ByteBuffer roce,
                                    int offset, int length, long timestampNanos, String comment) {
        if (writer.packetsWritten() >= maxPackets || writer.bytesWritten() >= maxBytes) {
            skipped++;
            return;
        }
        if (source != framedSource || destination != framedDestination || sourcePort != framedSourcePort
                || destinationPort != framedDestinationPort || identification != framedIdentification
                || length != framedLength || trafficClass != framedTrafficClass) {
            frame(source, destination, sourcePort, destinationPort, identification, trafficClass, length);
        }
        try {
            writer.write(interfaceId, epochOffsetNanos + timestampNanos, headers, framedHeaderLength, roce, offset, length,
                    comment);
        } catch (UncheckedIOException e) {
            skipped++;
        }
    }

    // The headers last framed, and what they were framed for: a stream's packets share them (same addresses,
    // ports and length, and identification 0 on the UDP path), and framing each again would be a third of the
    // capture's cost on a bulk sender's NIC thread.
    private PeerAddress framedSource;
    private PeerAddress framedDestination;
    private int framedSourcePort;
    private int framedDestinationPort;
    private int framedIdentification;
    private int framedTrafficClass;
    private int framedLength = -1;
    private int framedHeaderLength;

    private void frame(PeerAddress source, PeerAddress destination, int sourcePort, int destinationPort,
                       int identification, int trafficClass, int length) {
        framer.addresses(source.ipBytes(), destination.ipBytes()).ports(sourcePort, destinationPort)
                .identification(identification).tos(trafficClass);
        framedHeaderLength = framer.writeHeaders(headers, 0, length);
        framedSource = source;
        framedDestination = destination;
        framedSourcePort = sourcePort;
        framedDestinationPort = destinationPort;
        framedIdentification = identification;
        framedTrafficClass = trafficClass;
        framedLength = length;
    }

    /** Packets seen but not written because a bound was reached. */
    public synchronized long skipped() {
        return skipped;
    }

    public synchronized long written() {
        return writer.packetsWritten();
    }

    public synchronized void close() throws IOException {
        writer.close();
    }
}
