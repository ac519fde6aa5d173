package io.jrxe.wire.port.raw;

import io.jrxe.verbs.spi.Platform;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc socket calls the raw transmit path needs, through java.lang.foreign: socket,
 * setsockopt, sendmmsg, close and strerror, each with errno captured right after the call (a
 * later JVM action could overwrite the thread's errno); and those the receive path needs to read
 * each datagram's TOS byte (recvmsg, getsockname, getsockopt). Linux, LP64 (x86_64, aarch64).
 *
 * <p>Loading needs native access (--enable-native-access=ALL-UNNAMED); where it is denied,
 * {@link #unavailableReason()} says so and nothing here may be called.
 */
public final class LinuxSockets {
    static final int AF_INET = 2;
    static final int SOCK_RAW = 3;
    static final int SOCK_CLOEXEC = 0x80000;
    /** A raw socket of this protocol sends whole IP packets (IP_HDRINCL implied) and receives nothing. */
    static final int IPPROTO_RAW = 255;
    static final int IPPROTO_IP = 0;
    static final int IP_MULTICAST_IF = 32;
    static final int SOL_SOCKET = 1;
    static final int SO_SNDBUF = 7;
    static final int SO_SNDBUFFORCE = 32;
    static final int MSG_DONTWAIT = 0x40;

    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int EACCES = 13;
    static final int ENOBUFS = 105;

    /** struct iovec. */
    static final StructLayout IOVEC = MemoryLayout.structLayout(
            ValueLayout.ADDRESS.withName("iov_base"),
            ValueLayout.JAVA_LONG.withName("iov_len"));
    /** struct sockaddr_in: family in host order, port and address in network order. */
    static final StructLayout SOCKADDR_IN = MemoryLayout.structLayout(
            ValueLayout.JAVA_SHORT.withName("sin_family"),
            ValueLayout.JAVA_SHORT.withName("sin_port"),
            ValueLayout.JAVA_INT.withName("sin_addr"),
            MemoryLayout.paddingLayout(8));
    /** struct mmsghdr: a struct msghdr and the byte count the kernel reports back (recvmsg reads the msghdr). */
    public static final StructLayout MMSGHDR = MemoryLayout.structLayout(
            ValueLayout.ADDRESS.withName("msg_name"),
            ValueLayout.JAVA_INT.withName("msg_namelen"),
            MemoryLayout.paddingLayout(4),
            ValueLayout.ADDRESS.withName("msg_iov"),
            ValueLayout.JAVA_LONG.withName("msg_iovlen"),
            ValueLayout.ADDRESS.withName("msg_control"),
            ValueLayout.JAVA_LONG.withName("msg_controllen"),
            ValueLayout.JAVA_INT.withName("msg_flags"),
            MemoryLayout.paddingLayout(4),
            ValueLayout.JAVA_INT.withName("msg_len"),
            MemoryLayout.paddingLayout(4));

    static final long IOV_BASE = offset(IOVEC, "iov_base");
    static final long IOV_LEN = offset(IOVEC, "iov_len");
    static final long SIN_FAMILY = offset(SOCKADDR_IN, "sin_family");
    static final long SIN_ADDR = offset(SOCKADDR_IN, "sin_addr");
    public static final long MSG_NAME = offset(MMSGHDR, "msg_name");
    public static final long MSG_NAMELEN = offset(MMSGHDR, "msg_namelen");
    public static final long MSG_IOV = offset(MMSGHDR, "msg_iov");
    public static final long MSG_IOVLEN = offset(MMSGHDR, "msg_iovlen");
    public static final long MSG_CONTROL = offset(MMSGHDR, "msg_control");
    public static final long MSG_CONTROLLEN = offset(MMSGHDR, "msg_controllen");

    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final String UNAVAILABLE;
    private static final MethodHandle SOCKET;
    private static final MethodHandle SETSOCKOPT;
    private static final MethodHandle SENDMMSG;
    private static final MethodHandle CLOSE;
    private static final MethodHandle STRERROR;
    private static final MethodHandle RECVMSG;
    private static final MethodHandle GETSOCKNAME;
    private static final MethodHandle GETSOCKOPT;
    private static final MethodHandle DUP;

    static {
        String why = null;
        MethodHandle socket = null;
        MethodHandle setsockopt = null;
        MethodHandle sendmmsg = null;
        MethodHandle close = null;
        MethodHandle strerror = null;
        MethodHandle recvmsg = null;
        MethodHandle getsockname = null;
        MethodHandle getsockopt = null;
        MethodHandle dup = null;
        try {
            String unavailable = Platform.linuxOnlyUnavailable();
            if (unavailable != null) {
                // The constants and struct layouts above are Linux's: elsewhere the calls would link, and misbehave.
                // The portable path, forced, must not use them either.
                throw new UnsupportedOperationException(unavailable);
            }
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            Linker.Option errno = Linker.Option.captureCallState("errno");
            ValueLayout.OfInt i = ValueLayout.JAVA_INT;
            socket = linker.downcallHandle(libc.findOrThrow("socket"), FunctionDescriptor.of(i, i, i, i), errno);
            setsockopt = linker.downcallHandle(libc.findOrThrow("setsockopt"),
                    FunctionDescriptor.of(i, i, i, i, ValueLayout.ADDRESS, i), errno);
            sendmmsg = linker.downcallHandle(libc.findOrThrow("sendmmsg"),
                    FunctionDescriptor.of(i, i, ValueLayout.ADDRESS, i, i), errno);
            close = linker.downcallHandle(libc.findOrThrow("close"), FunctionDescriptor.of(i, i));
            recvmsg = linker.downcallHandle(libc.findOrThrow("recvmsg"),
                    FunctionDescriptor.of(ValueLayout.JAVA_LONG, i, ValueLayout.ADDRESS, i), errno);
            getsockname = linker.downcallHandle(libc.findOrThrow("getsockname"),
                    FunctionDescriptor.of(i, i, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            dup = linker.downcallHandle(libc.findOrThrow("dup"), FunctionDescriptor.of(i, i));
            getsockopt = linker.downcallHandle(libc.findOrThrow("getsockopt"),
                    FunctionDescriptor.of(i, i, i, i, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            strerror = linker.downcallHandle(libc.findOrThrow("strerror"),
                    FunctionDescriptor.of(ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(1024,
                            ValueLayout.JAVA_BYTE)), i));
        } catch (IllegalCallerException e) {
            why = "native access denied (run Java with --enable-native-access=ALL-UNNAMED)";
        } catch (UnsupportedOperationException e) {
            why = e.getMessage();
        } catch (RuntimeException | LinkageError e) {
            why = "libc's socket calls cannot be linked: " + e;
        }
        UNAVAILABLE = why;
        SOCKET = socket;
        SETSOCKOPT = setsockopt;
        SENDMMSG = sendmmsg;
        CLOSE = close;
        STRERROR = strerror;
        RECVMSG = recvmsg;
        GETSOCKNAME = getsockname;
        GETSOCKOPT = getsockopt;
        DUP = dup;
    }

    private LinuxSockets() {
    }

    /** Why these calls cannot be made in this JVM, or null when they can. */
    public static String unavailableReason() {
        return UNAVAILABLE;
    }

    /** A segment to hand to the calls that capture errno; one per thread that calls them. */
    public static MemorySegment allocateCallState(Arena arena) {
        return arena.allocate(CAPTURE_LAYOUT);
    }

    public static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    /** socket(2): the descriptor, or -1 with errno in callState. */
    static int socket(MemorySegment callState, int domain, int type, int protocol) {
        try {
            return (int) SOCKET.invokeExact(callState, domain, type, protocol);
        } catch (Throwable t) {
            throw new IllegalStateException("socket(2) could not be called", t);
        }
    }

    /** setsockopt(2) with an int value: 0, or -1 with errno in callState. */
    public static int setIntOption(MemorySegment callState, int fd, int level, int option, int value) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocateFrom(ValueLayout.JAVA_INT, value);
            return (int) SETSOCKOPT.invokeExact(callState, fd, level, option, v, (int) ValueLayout.JAVA_INT.byteSize());
        } catch (Throwable t) {
            throw new IllegalStateException("setsockopt(2) could not be called", t);
        }
    }

    /** sendmmsg(2): how many messages went, or -1 with errno in callState. Allocates nothing. */
    static int sendmmsg(MemorySegment callState, int fd, MemorySegment messages, int count, int flags) {
        try {
            return (int) SENDMMSG.invokeExact(callState, fd, messages, count, flags);
        } catch (Throwable t) {
            throw new IllegalStateException("sendmmsg(2) could not be called", t);
        }
    }

    /** recvmsg(2): the bytes received, or -1 with errno in callState. Allocates nothing. */
    public static long recvmsg(MemorySegment callState, int fd, MemorySegment message, int flags) {
        try {
            return (long) RECVMSG.invokeExact(callState, fd, message, flags);
        } catch (Throwable t) {
            throw new IllegalStateException("recvmsg(2) could not be called", t);
        }
    }

    /** getsockname(2) into {@code address} of {@code room} bytes: 0, or -1 (not a socket, closed). */
    public static int getsockname(int fd, MemorySegment address, int room) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment length = arena.allocateFrom(ValueLayout.JAVA_INT, room);
            return (int) GETSOCKNAME.invokeExact(fd, address, length);
        } catch (Throwable t) {
            throw new IllegalStateException("getsockname(2) could not be called", t);
        }
    }

    /** getsockopt(2) of an int option: its value, or -1 when the descriptor refuses it. */
    public static int getIntOption(int fd, int level, int option) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment length = arena.allocateFrom(ValueLayout.JAVA_INT, (int) ValueLayout.JAVA_INT.byteSize());
            int result = (int) GETSOCKOPT.invokeExact(fd, level, option, value, length);
            return result == 0 ? value.get(ValueLayout.JAVA_INT, 0) : -1;
        } catch (Throwable t) {
            throw new IllegalStateException("getsockopt(2) could not be called", t);
        }
    }

    /** dup(2): a second descriptor of the same socket, or -1. */
    public static int dup(int fd) {
        try {
            return (int) DUP.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException("dup(2) could not be called", t);
        }
    }

    public static void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close(2) could not be called", t);
        }
    }

    /** The C library's sentence for an errno (not for the hot path: it builds a String). */
    static String describe(int errno) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static long offset(StructLayout layout, String field) {
        return layout.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }
}
