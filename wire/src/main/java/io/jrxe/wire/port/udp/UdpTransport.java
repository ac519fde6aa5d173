package io.jrxe.wire.port.udp;

import io.jrxe.verbs.spi.Platform;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;

import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.ThreadFactory;

/**
 * Which of Netty's transports carries RoCEv2: epoll (recvmmsg, batched writes, SO_REUSEPORT)
 * where its native library loads, NIO otherwise. Each device gets an event loop of its own,
 * the device's NIC thread.
 */
public enum UdpTransport {
    EPOLL,
    NIO;

    /** The best transport this machine offers: epoll on Linux where its library loads, unless the portable path is forced. */
    public static UdpTransport best() {
        return epollUnavailableReason() == null ? EPOLL : NIO;
    }

    /** Why epoll is not used, or null when it is available. */
    public static String epollUnavailableReason() {
        // Epoll is not even asked where it is not wanted: asking loads its native library.
        String notHere = Platform.linuxOnlyUnavailable();
        if (notHere != null) {
            return notHere;
        }
        Throwable t = Epoll.unavailabilityCause();
        return t == null ? null : String.valueOf(t.getMessage());
    }

    /** A single-threaded event loop: the NIC thread of one device. */
    public EventLoopGroup newNicThread(String deviceName) {
        SelectStrategyFactory waiting = () -> new SpinThenBlockStrategy(io.jrxe.verbs.idle.PollWindow.NIC_THREAD_NANOS);
        IoHandlerFactory factory = this == EPOLL ? EpollIoHandler.newFactory(0, waiting)
                : NioIoHandler.newFactory(SelectorProvider.provider(), waiting);
        ThreadFactory threads = r -> {
            Thread t = new Thread(r, "jrxe-nic-" + deviceName);
            t.setDaemon(true);
            return t;
        };
        return new MultiThreadIoEventLoopGroup(1, threads, factory);
    }

    public Class<? extends DatagramChannel> channelClass() {
        return this == EPOLL ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }

    /** What devinfo prints. */
    public String describe() {
        String why = this == EPOLL ? null : epollUnavailableReason();
        return this == EPOLL ? "epoll (recvmmsg)" : "NIO" + (why == null ? "" : " (epoll unavailable: " + why + ")");
    }
}
