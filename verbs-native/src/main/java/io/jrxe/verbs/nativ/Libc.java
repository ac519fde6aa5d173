package io.jrxe.verbs.nativ;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The few C library calls the native provider needs: poll(2) on libibverbs' and librdmacm's event
 * fds (so that waits have a timeout and notice interrupts), fcntl(2) to make an fd non-blocking,
 * and strerror for messages.
 */
final class Libc {
    static final short POLLIN = 0x1;
    /** struct pollfd { int fd; short events; short revents; }. */
    static final MemoryLayout POLLFD = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("fd"), ValueLayout.JAVA_SHORT.withName("events"),
            ValueLayout.JAVA_SHORT.withName("revents"));
    private static final int EINTR = 4;
    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;
    /** O_NONBLOCK (04000) on x86-64 and aarch64 alike. */
    private static final int O_NONBLOCK = 0x800;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle POLL = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("poll"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT),
            Linker.Option.captureCallState("errno"));
    /** fcntl is variadic: its third argument goes as C's variadic int (F_GETFL ignores it). */
    private static final MethodHandle FCNTL = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("fcntl"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
            Linker.Option.firstVariadicArg(2), Linker.Option.captureCallState("errno"));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("strerror"),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private Libc() {
    }

    /**
     * Waits up to {@code timeoutMillis} for {@code fd} to become readable.
     *
     * @return true when it is readable; false when the time passed or a signal cut the wait short
     */
    static boolean readable(int fd, int timeoutMillis, SegmentAllocator arena) throws NativeVerbsException {
        MemorySegment pfd = arena.allocate(POLLFD);
        pfd.set(ValueLayout.JAVA_INT, 0, fd);
        pfd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
        MemorySegment state = arena.allocate(CapturedErrno.STATE);
        int n;
        try {
            n = (int) POLL.invokeExact(state, pfd, 1L, timeoutMillis);
        } catch (Throwable t) {
            throw CapturedErrno.unexpected(t);
        }
        if (n < 0) {
            int errno = CapturedErrno.read(state);
            if (errno == EINTR) {
                return false;
            }
            throw NativeVerbsException.of("poll", errno);
        }
        return n > 0 && (pfd.get(ValueLayout.JAVA_SHORT, 6) & POLLIN) != 0;
    }

    /** Sets O_NONBLOCK on {@code fd}, so that a read of it that finds nothing says EAGAIN instead of waiting. */
    static void setNonBlocking(int fd, SegmentAllocator arena) throws NativeVerbsException {
        MemorySegment state = arena.allocate(CapturedErrno.STATE);
        try {
            int flags = (int) FCNTL.invokeExact(state, fd, F_GETFL, 0);
            if (flags < 0) {
                throw NativeVerbsException.of("fcntl(" + fd + ", F_GETFL)", CapturedErrno.read(state));
            }
            if ((int) FCNTL.invokeExact(state, fd, F_SETFL, flags | O_NONBLOCK) < 0) {
                throw NativeVerbsException.of("fcntl(" + fd + ", F_SETFL, O_NONBLOCK)", CapturedErrno.read(state));
            }
        } catch (NativeVerbsException e) {
            throw e;
        } catch (Throwable t) {
            throw CapturedErrno.unexpected(t);
        }
    }

    static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(1024).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }
}
