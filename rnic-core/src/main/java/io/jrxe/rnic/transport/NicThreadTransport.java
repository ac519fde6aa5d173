package io.jrxe.rnic.transport;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.fault.FaultyPort;
import io.jrxe.wire.port.udp.EventLoopTime;
import io.jrxe.wire.port.udp.PortInUseException;
import io.jrxe.wire.port.udp.UdpPort;
import io.jrxe.wire.port.udp.UdpTransport;
import io.jrxe.wire.time.NicTime;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;

import java.util.concurrent.TimeUnit;

/** Real UDP run by a NIC thread of the device's own: a Netty event loop (epoll where it loads, NIO otherwise). */
public final class NicThreadTransport implements NicTransport {
    private final EventLoopGroup group;
    private final UdpPort udp;
    private final PacketPort port;
    private final NicTime time;
    private final NicExecutor executor;

    private NicThreadTransport(EventLoopGroup group, EventLoop loop, UdpPort udp, DeviceConfig config) {
        this.group = group;
        this.udp = udp;
        this.time = new EventLoopTime(loop);
        this.port = FaultyPort.wrap(udp, config.faults(), time);
        this.executor = new EventLoopExecutor(loop);
    }

    /**
     * A NIC thread and a socket on the device's first address, port 4791, doing the configuration's faults.
     *
     * @throws PortInUseException when the address cannot be bound (taken, or not an address of this host)
     */
    public static NicThreadTransport bindUdp(DeviceConfig config) throws PortInUseException {
        UdpTransport transport = UdpTransport.best();
        EventLoopGroup group = transport.newNicThread(config.name());
        EventLoop loop = group.next();
        try {
            UdpPort port = UdpPort.bind(transport, loop, PeerAddress.of(config.addresses().getFirst()));
            port.rxeFlushIcrc(config.rxeFlushIcrc());
            port.ecnCapable(config.ecnCapable());
            return new NicThreadTransport(group, loop, port, config);
        } catch (PortInUseException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    /** The port: the socket's, or a {@link FaultyPort} over it when the configuration has faults. */
    @Override
    public PacketPort port() {
        return port;
    }

    /** The socket's port beneath any faults. */
    public UdpPort udpPort() {
        return udp;
    }

    @Override
    public NicTime time() {
        return time;
    }

    @Override
    public NicExecutor executor() {
        return executor;
    }

    @Override
    public void close() {
        port.close();
        group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
    }

    @Override
    public String toString() {
        return "UDP, NIC thread";
    }
}
