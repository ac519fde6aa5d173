package io.jrxe.rnic.transport;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.wire.port.PeerAddress;
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
    private final PolledUdpPort port;
    private final InvokerLoop loop;
    private final NicExecutor executor;

    private InvokedTransport(PolledUdpPort port, InvokerLoop loop) {
        this.port = port;
        this.loop = loop;
        this.executor = new InvokerExecutor(loop);
    }

    /**
     * A socket on the device's first address, port 4791, run by whoever invokes it.
     *
     * @throws PortInUseException when the address cannot be bound (taken, or not an address of this host)
     */
    public static InvokedTransport bindUdp(DeviceConfig config) throws PortInUseException {
        PolledUdpPort port = PolledUdpPort.bind(PeerAddress.of(config.addresses().getFirst()), RawSocketOpener.system());
        port.rxeFlushIcrc(config.rxeFlushIcrc());
        return new InvokedTransport(port, new InvokerLoop(port, config.name()));
    }

    @Override
    public PolledUdpPort port() {
        return port;
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
