package io.jrxe.wire.port.udp;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The NIC thread's reading of a socket with recvmsg instead of Netty's recvmmsg, so that each datagram comes with its
 * TOS byte (the ECN codepoint): the socket's own Netty channel stops reading (auto-read off) and a duplicate of its
 * descriptor is watched in the same epoll set, the event loop's. A run of datagrams the kernel coalesced (UDP GRO)
 * is cut back into them here, as Netty does.
 */
final class EpollTosReading implements EpollIoHandle {
    /** Datagrams read per readiness event before the loop's other work gets a turn (the socket stays readable). */
    private static final int DATAGRAMS_PER_EVENT = 64;

    /** Where the datagrams go: the port's admission, and the end of each burst. */
    interface Datagrams extends TosReceiver.Datagrams {
        void burstEnd();
    }

    private final TosReceiver receiver;
    private final FileDescriptor descriptor;
    private final Datagrams datagrams;
    private volatile IoRegistration registration;
    private boolean closed;

    private EpollTosReading(TosReceiver receiver, Datagrams datagrams) {
        this.receiver = receiver;
        this.descriptor = new FileDescriptor(receiver.descriptor());
        this.datagrams = datagrams;
    }

    /**
     * Watches the socket bound to {@code bound} on {@code loop} with a duplicate of its descriptor, reading datagrams
     * of up to {@code capacity} bytes; on the loop's thread, which registers it at once. The caller turns the
     * socket's Netty channel's auto-read off.
     *
     * @throws IOException when recvmsg or the duplicate cannot be had, or the loop refuses the registration
     */
    static EpollTosReading start(IoEventLoop loop, InetSocketAddress bound, int capacity, Datagrams datagrams)
            throws IOException {
        TosReceiver found = TosReceiver.of(bound, 0);
        EpollTosReading reading = new EpollTosReading(found.duplicate(capacity), datagrams);
        io.netty.util.concurrent.Future<IoRegistration> f = loop.register(reading);
        if (!f.isDone() || !f.isSuccess()) {
            reading.close();
            throw new IOException("the event loop did not register the socket's duplicate: " + f.cause());
        }
        reading.registration = f.getNow();
        reading.registration.submit(EpollIoOps.EPOLLIN);
        return reading;
    }

    @Override
    public FileDescriptor fd() {
        return descriptor;
    }

    @Override
    public void handle(IoRegistration r, IoEvent event) {
        if (!closed && receiver.drain(DATAGRAMS_PER_EVENT, datagrams) > 0) {
            datagrams.burstEnd();
        }
    }

    /** Stops watching and closes the duplicate descriptor; on the event loop. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        IoRegistration r = registration;
        if (r != null) {
            r.cancel();
        }
        receiver.close();
    }
}
