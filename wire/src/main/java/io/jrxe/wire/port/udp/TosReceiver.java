package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.raw.LinuxSockets;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads the datagrams of a UDP socket with recvmsg(2), through java.lang.foreign, so that each comes with the TOS
 * byte (IPv4, IP_RECVTOS) or traffic class (IPv6, IPV6_RECVTCLASS) of its IP header, which holds the ECN codepoint:
 * the JDK's DatagramChannel and Netty's epoll channels hand over the payload and the sender only. The socket stays
 * the JDK's (its selector still wakes for it); this reads its descriptor, found by the address it is bound to.
 * Linux, LP64. Per datagram nothing is allocated but a sender's address when it is not in its slot of a small
 * table of those seen (the first time, or after another sender took the slot).
 */
public final class TosReceiver {
    private static final int IPPROTO_IP = 0;
    private static final int IP_TOS = 1;
    private static final int IP_RECVTOS = 13;
    private static final int IPPROTO_IPV6 = 41;
    private static final int IPV6_RECVTCLASS = 66;
    private static final int IPV6_TCLASS = 67;
    private static final int SOL_UDP = 17;
    private static final int UDP_GRO = 104;
    private static final int SOL_SOCKET = 1;
    private static final int SO_TYPE = 3;
    private static final int SOCK_DGRAM = 2;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final int MSG_DONTWAIT = 0x40;
    private static final int SOCKADDR_ROOM = 128;
    private static final int CONTROL_ROOM = 64;
    private static final int CMSG_HEADER = 16;

    private final int fd;
    private final boolean ipv6;
    private final MemorySegment message;
    private final MemorySegment name;
    private final MemorySegment control;
    private final MemorySegment callState;
    private final ByteBuffer data;
    private final ByteBuffer nameBytes;
    private final ByteBuffer controlBytes;
    /** The senders seen, by a hash of address and port: a peer's address is made once, not per datagram. */
    private final InetSocketAddress[] senders = new InetSocketAddress[64];
    /** Each slot's sender as the kernel wrote it: address bytes, then the port's two. */
    private final byte[][] senderKeys = new byte[64][];
    private final byte[] address;
    private int tos;
    private int segmentSize;
    private InetSocketAddress sender;
    /** Whether this reads a descriptor of its own (a duplicate), which {@link #close} closes. */
    private final boolean ownsDescriptor;

    private TosReceiver(int fd, boolean ipv6, int capacity, boolean ownsDescriptor) {
        this.fd = fd;
        this.ownsDescriptor = ownsDescriptor;
        this.ipv6 = ipv6;
        this.address = new byte[ipv6 ? 16 : 4];
        // Freed by the garbage collector, not by a close: the thread that closes the port may not be the one reading.
        Arena arena = Arena.ofAuto();
        MemorySegment buffer = arena.allocate(capacity, 64);
        MemorySegment iovec = arena.allocate(16, 8);
        this.name = arena.allocate(SOCKADDR_ROOM, 8);
        this.control = arena.allocate(CONTROL_ROOM, 8);
        this.message = arena.allocate(LinuxSockets.MMSGHDR);
        this.callState = LinuxSockets.allocateCallState(arena);
        iovec.set(ValueLayout.ADDRESS, 0, buffer);
        iovec.set(ValueLayout.JAVA_LONG, 8, capacity);
        message.set(ValueLayout.ADDRESS, LinuxSockets.MSG_NAME, name);
        message.set(ValueLayout.ADDRESS, LinuxSockets.MSG_IOV, iovec);
        message.set(ValueLayout.JAVA_LONG, LinuxSockets.MSG_IOVLEN, 1L);
        message.set(ValueLayout.ADDRESS, LinuxSockets.MSG_CONTROL, control);
        this.data = buffer.asByteBuffer().order(ByteOrder.BIG_ENDIAN);
        this.nameBytes = name.asByteBuffer().order(ByteOrder.BIG_ENDIAN);
        this.controlBytes = control.asByteBuffer().order(ByteOrder.nativeOrder());
    }

    /** Why recvmsg cannot be called in this JVM, or null when it can. */
    public static String unavailableReason() {
        return LinuxSockets.unavailableReason();
    }

    /**
     * Reads the datagrams of this process's UDP socket bound to {@code bound} (a specific address, not the wildcard),
     * with their TOS or traffic class, in datagrams of at most {@code capacity} bytes.
     *
     * @throws IOException when recvmsg cannot be called here, no such socket is found or it refuses the option
     */
    public static TosReceiver of(InetSocketAddress bound, int capacity) throws IOException {
        if (LinuxSockets.unavailableReason() != null) {
            throw new IOException(LinuxSockets.unavailableReason());
        }
        Found socket = boundDatagramSocket(bound);
        // An IPv6 socket may carry IPv4 (Netty's epoll sockets are dual-stack): it is asked for both.
        boolean refused = setIntOption(socket.fd, IPPROTO_IP, IP_RECVTOS, 1) != 0 && !socket.ipv6
                || socket.ipv6 && setIntOption(socket.fd, IPPROTO_IPV6, IPV6_RECVTCLASS, 1) != 0;
        if (refused) {
            throw new IOException("the socket bound to " + bound + " refuses IP_RECVTOS or IPV6_RECVTCLASS");
        }
        return new TosReceiver(socket.fd, socket.ipv6, capacity, false);
    }

    private record Found(int fd, boolean ipv6) {
    }

    /**
     * The descriptor of the UDP socket of this process bound to {@code bound}: an IPv4 address may be held by an
     * IPv6 socket as ::ffff:a.b.c.d.
     */
    private static Found boundDatagramSocket(InetSocketAddress bound) throws IOException {
        byte[] wanted = bound.getAddress().getAddress();
        byte[] mapped = new byte[16];
        if (wanted.length == 4) {
            mapped[10] = (byte) 0xFF;
            mapped[11] = (byte) 0xFF;
            System.arraycopy(wanted, 0, mapped, 12, 4);
        }
        List<Integer> candidates;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            candidates = fds.map(p -> p.getFileName().toString()).filter(s -> s.chars().allMatch(Character::isDigit))
                    .map(Integer::parseInt).toList();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = arena.allocate(SOCKADDR_ROOM, 8);
            for (int fd : candidates) {
                if (LinuxSockets.getsockname(fd, sa, SOCKADDR_ROOM) != 0) {
                    continue;
                }
                int family = sa.get(ValueLayout.JAVA_SHORT, 0);
                int port = Short.toUnsignedInt(Short.reverseBytes(sa.get(ValueLayout.JAVA_SHORT, 2)));
                boolean matches;
                if (family == AF_INET) {
                    matches = Arrays.equals(sa.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE), wanted);
                } else if (family == AF_INET6) {
                    byte[] at = sa.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
                    matches = Arrays.equals(at, wanted) || wanted.length == 4 && Arrays.equals(at, mapped);
                } else {
                    continue;
                }
                if (matches && port == bound.getPort() && LinuxSockets.getIntOption(fd, SOL_SOCKET, SO_TYPE) == SOCK_DGRAM) {
                    return new Found(fd, family == AF_INET6);
                }
            }
        }
        throw new IOException("no UDP socket of this process is bound to " + bound);
    }

    private static int setIntOption(int fd, int level, int option, int value) {
        try (Arena arena = Arena.ofConfined()) {
            return LinuxSockets.setIntOption(LinuxSockets.allocateCallState(arena), fd, level, option, value);
        }
    }

    /**
     * Reads one waiting datagram into {@link #buffer()}, without blocking.
     *
     * @return its length; -1 when none waits or the socket reports an error (closed, an ICMP error queued on it)
     */
    public int receive() {
        message.set(ValueLayout.JAVA_INT, LinuxSockets.MSG_NAMELEN, SOCKADDR_ROOM);
        message.set(ValueLayout.JAVA_LONG, LinuxSockets.MSG_CONTROLLEN, CONTROL_ROOM);
        long n = LinuxSockets.recvmsg(callState, fd, message, MSG_DONTWAIT);
        if (n < 0) {
            return -1;
        }
        readControl(message.get(ValueLayout.JAVA_LONG, LinuxSockets.MSG_CONTROLLEN));
        sender = readSender();
        return (int) n;
    }

    /** Where {@link #drain} hands each datagram. */
    public interface Datagrams {
        void datagram(ByteBuffer buffer, int offset, int length, InetSocketAddress sender, int tos);
    }

    /**
     * Reads up to {@code max} waiting reads without blocking and hands every datagram to {@code to}, a run the kernel
     * coalesced (UDP GRO) cut back into its datagrams.
     *
     * @return the reads made (0: nothing waited)
     */
    public int drain(int max, Datagrams to) {
        int n = 0;
        while (n < max) {
            int length = receive();
            if (length < 0) {
                break;
            }
            n++;
            int segment = segmentSize;
            if (segment <= 0 || segment >= length) {
                to.datagram(data, 0, length, sender, tos);
            } else {
                for (int at = 0; at < length; at += segment) {
                    to.datagram(data, at, Math.min(segment, length - at), sender, tos);
                }
            }
        }
        return n;
    }

    /**
     * A receiver of the same socket through a descriptor of its own (dup(2)), which {@link #close} closes: what an
     * epoll set can watch beside the descriptor its owner registered there already.
     *
     * @throws IOException when the descriptor cannot be duplicated
     */
    public TosReceiver duplicate(int capacity) throws IOException {
        int copy = LinuxSockets.dup(fd);
        if (copy < 0) {
            throw new IOException("dup(2) of the socket's descriptor failed");
        }
        return new TosReceiver(copy, ipv6, capacity, true);
    }

    /** The descriptor read. */
    public int descriptor() {
        return fd;
    }

    /** Closes the descriptor if it is this receiver's own ({@link #duplicate}); the socket's other one stays. */
    public void close() {
        if (ownsDescriptor) {
            LinuxSockets.close(fd);
        }
    }

    /**
     * The size of each datagram the last read held when the kernel coalesced a run of them (UDP GRO), the last one
     * maybe shorter; 0 for a single datagram.
     */
    public int segmentSize() {
        return segmentSize;
    }

    /** The errno of the last {@link #receive} that returned -1 (EAGAIN, 11, when nothing waited). */
    public int lastErrno() {
        return LinuxSockets.errno(callState);
    }

    /** The TOS byte or traffic class of the last datagram read; its two low bits are the ECN codepoint. */
    public int tos() {
        return tos;
    }

    /** Who sent the last datagram read. */
    public InetSocketAddress sender() {
        return sender;
    }

    /** The datagram last read, from 0; direct and big-endian. */
    public ByteBuffer buffer() {
        return data;
    }

    /** Takes the TOS byte (or traffic class) and the GRO segment size from the control messages. */
    private void readControl(long controlLength) {
        tos = 0;
        segmentSize = 0;
        int at = 0;
        while (at + CMSG_HEADER <= controlLength) {
            long length = controlBytes.getLong(at);
            int level = controlBytes.getInt(at + 8);
            int type = controlBytes.getInt(at + 12);
            if (level == IPPROTO_IP && type == IP_TOS) {
                tos = controlBytes.get(at + CMSG_HEADER) & 0xFF;
            } else if (level == IPPROTO_IPV6 && type == IPV6_TCLASS) {
                tos = controlBytes.getInt(at + CMSG_HEADER) & 0xFF;
            } else if (level == SOL_UDP && type == UDP_GRO) {
                segmentSize = controlBytes.getInt(at + CMSG_HEADER);
            }
            if (length < CMSG_HEADER) {
                break;
            }
            at += (int) ((length + 7) & ~7L);
        }
    }

    private InetSocketAddress readSender() {
        int port = nameBytes.getShort(2) & 0xFFFF;
        nameBytes.get(ipv6 ? 8 : 4, address);
        int hash = port;
        for (byte b : address) {
            hash = hash * 31 + b;
        }
        int slot = (hash ^ hash >>> 16) & (senders.length - 1);
        byte[] key = senderKeys[slot];
        if (key != null && sameSender(key, port)) {
            return senders[slot];
        }
        try {
            InetSocketAddress made = new InetSocketAddress(InetAddress.getByAddress(address.clone()), port);
            key = Arrays.copyOf(address, address.length + 2);
            key[address.length] = (byte) (port >>> 8);
            key[address.length + 1] = (byte) port;
            senders[slot] = made;
            senderKeys[slot] = key;
            return made;
        } catch (UnknownHostException e) {
            throw new IllegalStateException("the kernel gave a sender address of " + address.length + " bytes", e);
        }
    }

    private boolean sameSender(byte[] key, int port) {
        int n = address.length;
        return key.length == n + 2 && Arrays.equals(key, 0, n, address, 0, n)
                && (key[n] & 0xFF) == port >>> 8 && (key[n + 1] & 0xFF) == (port & 0xFF);
    }
}
