package io.jrxe.rnic.transport;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.fault.FaultyPort;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.udp.InvokerLoop;
import io.jrxe.wire.port.udp.PolledUdpPort;
import io.jrxe.wire.port.udp.PortInUseException;
import io.jrxe.wire.time.NicTime;

/**
 * Real UDP run by the program's thread: whichever thread polls a CQ, posts or waits runs the NIC's
 * duty cycle ({@link InvokerLoop}), with a standby thread for when none does.
 */
public final class InvokedTransport implements NicTransport {
    private final PolledUdpPort udp;
    private final PacketPort port;
    private final InvokerLoop loop;
    private final NicExecutor executor;

    private InvokedTransport(PolledUdpPort udp, InvokerLoop loop, DeviceConfig config) {
        this.udp = udp;
        this.loop = loop;
        this.port = FaultyPort.wrap(udp, config.faults(), loop);
        this.executor = new InvokerExecutor(loop);
    }

    /**
     * A socket on the device's first address, port 4791, run by whoever invokes it, doing the configuration's faults.
     *
     * @throws PortInUseException when the address cannot be bound (taken, or not an address of this host)
     */
    public static InvokedTransport bindUdp(DeviceConfig config) throws PortInUseException {
        PolledUdpPort port = PolledUdpPort.bind(PeerAddress.of(config.addresses().getFirst()), RawSocketOpener.system());
        port.rxeFlushIcrc(config.rxeFlushIcrc());
        port.ecnCapable(config.ecnCapable());
        return new InvokedTransport(port, new InvokerLoop(port, config.name()), config);
    }

    /** The port: the socket's, or a {@link FaultyPort} over it when the configuration has faults. */
    @Override
    public PacketPort port() {
        return port;
    }

    /** The socket's port beneath any faults, which the invoker polls. */
    public PolledUdpPort udpPort() {
        return udp;
    }

    @Override
    public NicTime time() {
        return loop;
    }

    @Override
    public NicExecutor executor() {
        return executor;
    }

    @Override
    public InvokerLoop invoker() {
        return loop;
    }

    @Override
    public void close() {
        loop.close();
    }

    @Override
    public String toString() {
        return "UDP, invoked by the program";
    }
}
