package io.jrxe.wire.port.raw;

import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.port.PeerAddress;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Transmits IPv4 RoCE packets through a raw socket, writing their IP and UDP headers itself, so
 * that the IP identification the ICRC covers is one jrxe chose: the ICRC is computed over
 * exactly the headers that leave (both come from one {@link RoceFramer}). The header is what rxe
 * sends: version 4, IHL 5, TOS 0, DF, TTL 64, UDP, the header checksum filled in (the kernel
 * recomputes it anyway), UDP checksum 0 (allowed for IPv4, and what rxe sends).
 *
 * <p>Packets are staged into preallocated slots, each a buffer, an iovec, a sockaddr_in and an
 * mmsghdr in native memory, and leave in one sendmmsg(2) per {@link #flush()} (or when every slot
 * is full). Sends never block (MSG_DONTWAIT): when the socket's buffer is full the rest of the
 * batch is dropped and counted, as a NIC drops what its queue cannot hold; RC retransmits.
 *
 * <p>Not thread-safe: staging and flushing run on the device's NIC thread; so must
 * {@link #close()}. Nothing is allocated per packet or per flush.
 */
public final class RawIpv4Sender implements AutoCloseable {
    /** Slots per batch: a flush's worth of packets in bulk transfers, well under sendmmsg's limit of 1024. */
    public static final int DEFAULT_SLOTS = 256;
    private static final int SEND_BUFFER_BYTES = 8 << 20;
    private static final ValueLayout.OfInt NETWORK_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final long MESSAGE_SIZE = LinuxSockets.MMSGHDR.byteSize();
    private static final long IOVEC_SIZE = LinuxSockets.IOVEC.byteSize();
    private static final long SOCKADDR_SIZE = LinuxSockets.SOCKADDR_IN.byteSize();

    private final int fd;
    private final int slots;
    private final int stride;
    private final int maxRoceLength;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment callState;
    private final MemorySegment iovecs;
    private final MemorySegment addresses;
    /** messageAt[i] starts at slot i's mmsghdr: a sendmmsg that resumes there needs no slice of its own. */
    private final MemorySegment[] messageAt;
    private final ByteBuffer data;
    private final RoceFramer framer = new RoceFramer();
    private final Ipv4Identifications identifications;
    private final byte[] localIp;
    private int staged;
    private boolean closed;
    private boolean multicastFromLocalInterface;
    private volatile long packetsSent;
    private volatile long packetsDropped;
    private volatile int lastErrno;

    /**
     * @param fd            a raw IPv4 socket ({@link RawSocketOpener}); owned from now on
     * @param local         the device's IPv4 address: every packet's source
     * @param slots         packets per batch
     * @param maxRoceLength the longest UDP payload that will be sent
     * @param firstId       the first IP identification (then incrementing, never 0)
     */
    public RawIpv4Sender(int fd, PeerAddress local, int slots, int maxRoceLength, int firstId) {
        if (local.ipv6()) {
            throw new IllegalArgumentException("the raw transmit path is for IPv4; " + local + " is IPv6");
        }
        this.fd = fd;
        this.slots = slots;
        this.maxRoceLength = maxRoceLength;
        this.localIp = local.ipBytes().clone();
        this.identifications = new Ipv4Identifications(firstId);
        framer.ports(0, PeerAddress.ROCE_PORT).flagsFragment(RoceFramer.FLAG_DONT_FRAGMENT).ttl(64).tos(0).udpChecksum(0);
        this.stride = (IcrcCalculator.IPV4_HEADER_LENGTH + IcrcCalculator.UDP_HEADER_LENGTH + maxRoceLength + 7) & ~7;
        try {
            MemorySegment buffers = arena.allocate((long) slots * stride, 64);
            this.data = buffers.asByteBuffer().order(ByteOrder.BIG_ENDIAN);
            this.callState = LinuxSockets.allocateCallState(arena);
            this.iovecs = arena.allocate(LinuxSockets.IOVEC, slots);
            this.addresses = arena.allocate(LinuxSockets.SOCKADDR_IN, slots);
            this.messageAt = describeSlots(buffers, arena.allocate(LinuxSockets.MMSGHDR, slots));
            enlargeSendBuffer();
            sendMulticastFromLocalInterface();
        } catch (RuntimeException | OutOfMemoryError e) {
            LinuxSockets.close(fd);
            arena.close();
            throw e;
        }
    }

    /**
     * Points each slot's mmsghdr at its sockaddr_in and its iovec, and each iovec at the slot's
     * buffer; per packet only the iovec's length and the destination address change.
     *
     * @return for each slot, the segment that starts at its mmsghdr
     */
    private MemorySegment[] describeSlots(MemorySegment buffers, MemorySegment messages) {
        MemorySegment[] starts = new MemorySegment[slots];
        for (int i = 0; i < slots; i++) {
            MemorySegment iov = iovecs.asSlice(i * IOVEC_SIZE, IOVEC_SIZE);
            iov.set(ValueLayout.ADDRESS, LinuxSockets.IOV_BASE, buffers.asSlice((long) i * stride, stride));
            MemorySegment sin = addresses.asSlice(i * SOCKADDR_SIZE, SOCKADDR_SIZE);
            sin.set(ValueLayout.JAVA_SHORT, LinuxSockets.SIN_FAMILY, (short) LinuxSockets.AF_INET);
            MemorySegment msg = messages.asSlice(i * MESSAGE_SIZE, MESSAGE_SIZE);
            msg.set(ValueLayout.ADDRESS, LinuxSockets.MSG_NAME, sin);
            msg.set(ValueLayout.JAVA_INT, LinuxSockets.MSG_NAMELEN, (int) SOCKADDR_SIZE);
            msg.set(ValueLayout.ADDRESS, LinuxSockets.MSG_IOV, iov);
            msg.set(ValueLayout.JAVA_LONG, LinuxSockets.MSG_IOVLEN, 1L);
            starts[i] = messages.asSlice(i * MESSAGE_SIZE);
        }
        return starts;
    }

    // A burst of a flush's worth of 4 KiB packets must fit, or its tail is dropped. The default
    // (wmem_default) is far smaller; SO_SNDBUFFORCE passes wmem_max where CAP_NET_ADMIN allows.
    private void enlargeSendBuffer() {
        if (LinuxSockets.setIntOption(callState, fd, LinuxSockets.SOL_SOCKET, LinuxSockets.SO_SNDBUFFORCE,
                SEND_BUFFER_BYTES) != 0) {
            LinuxSockets.setIntOption(callState, fd, LinuxSockets.SOL_SOCKET, LinuxSockets.SO_SNDBUF, SEND_BUFFER_BYTES);
        }
    }

    /**
     * A raw socket is bound to no address, so multicast (a UD datagram to a group) would follow the routes, which
     * a lab's namespace need not have: IP_MULTICAST_IF with the device's address sends it out of that address's
     * interface, as rxe sends from its netdev. Where no interface has the address, multicast follows the routes.
     */
    private void sendMulticastFromLocalInterface() {
        // struct in_addr, in network order: the int whose bytes in memory are the address's.
        int inAddr = java.nio.ByteBuffer.wrap(localIp).order(ByteOrder.nativeOrder()).getInt();
        multicastFromLocalInterface = LinuxSockets.setIntOption(callState, fd, LinuxSockets.IPPROTO_IP,
                LinuxSockets.IP_MULTICAST_IF, inAddr) == 0;
    }

    /** Whether RC FLUSH packets get the ICRC Linux's rxe computes instead of the IBTA's (see RoceUdpPort#rxeFlushIcrc). */
    public void rxeFlushIcrc(boolean asRxe) {
        framer.rxeFlushIcrc(asRxe);
    }

    /** The TOS byte of the packets staged from now on (the ECN codepoint in its two low bits). */
    public void tos(int value) {
        framer.tos(value);
    }

    /** Whether multicast leaves through the device's interface; if not, the port sends none (it could go anywhere). */
    public boolean sendsMulticastFromLocalInterface() {
        return multicastFromLocalInterface;
    }

    /**
     * Writes the ICRC into the packet's last four bytes for the identification chosen for it, and
     * stages the packet, headers in front, for the next flush (which happens now when every slot
     * is taken).
     *
     * @return the IP identification the packet carries
     */
    public int stage(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        if (closed) {
            throw new IllegalStateException("the raw socket is closed");
        }
        if (length > maxRoceLength) {
            throw new IllegalArgumentException("a RoCE packet of " + length + " bytes exceeds " + maxRoceLength);
        }
        int id = stampIcrc(packet, offset, length, to, srcPort);
        int slot = staged;
        int at = slot * stride;
        int headers = framer.writeIpUdpHeaders(data, at, length);
        data.put(at + headers, packet, offset, length);
        iovecs.set(ValueLayout.JAVA_LONG, slot * IOVEC_SIZE + LinuxSockets.IOV_LEN, headers + length);
        addresses.set(NETWORK_INT, slot * SOCKADDR_SIZE + LinuxSockets.SIN_ADDR, to.ipv4());
        staged = slot + 1;
        if (staged == slots) {
            flush();
        }
        return id;
    }

    /**
     * Takes the next IP identification and writes into the packet's last four bytes the ICRC for it, with the
     * headers this sender puts in front; {@link #stage} does this first. Alone, for a packet lost before it left
     * (fault injection): its identification is used up as a packet lost on the wire uses up its own.
     *
     * @return the IP identification the ICRC covers
     */
    public int stampIcrc(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        int id = identifications.next();
        RoceFramer f = framer.addresses(localIp, to.ipBytes()).ports(srcPort, PeerAddress.ROCE_PORT).identification(id);
        IcrcCalculator.write(packet, offset + length - IcrcCalculator.LENGTH, f.icrc(packet, offset, length));
        return id;
    }

    /** Packets staged and not yet flushed. */
    public int staged() {
        return staged;
    }

    /**
     * Sends every staged packet: one sendmmsg(2), more only when the kernel stops part way. A
     * packet the kernel refuses (EMSGSIZE past the interface MTU, say) is dropped and the rest
     * go; when the socket buffer is full (EAGAIN, ENOBUFS) the rest of the batch is dropped.
     * Bounded: every call either sends or drops at least one packet, EINTR is retried a few times.
     *
     * @return how many packets left
     */
    public int flush() {
        int count = staged;
        staged = 0;
        if (closed || count == 0) {
            return 0;
        }
        int done = 0;
        int sent = 0;
        int interrupts = 0;
        while (done < count) {
            int n = LinuxSockets.sendmmsg(callState, fd, messageAt[done], count - done, LinuxSockets.MSG_DONTWAIT);
            if (n > 0) {
                done += n;
                sent += n;
                continue;
            }
            int errno = LinuxSockets.errno(callState);
            lastErrno = errno;
            if (errno == LinuxSockets.EINTR && ++interrupts <= 3) {
                continue;
            }
            int lost = errno == LinuxSockets.EAGAIN || errno == LinuxSockets.ENOBUFS || errno == LinuxSockets.EINTR
                    ? count - done : 1;
            packetsDropped += lost;
            done += lost;
        }
        packetsSent += sent;
        return sent;
    }

    public long packetsSent() {
        return packetsSent;
    }

    /** Packets the kernel refused or that found the socket buffer full. */
    public long packetsDropped() {
        return packetsDropped;
    }

    /** The errno of the last refused send, 0 when none was refused. */
    public int lastErrno() {
        return lastErrno;
    }

    /** The sentence for {@link #lastErrno()} (builds a String: not for the hot path). */
    public String lastError() {
        int e = lastErrno;
        return e == 0 ? "none" : LinuxSockets.describe(e);
    }

    /** Closes the socket and frees the slots; staged packets are not sent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        staged = 0;
        LinuxSockets.close(fd);
        arena.close();
    }
}
