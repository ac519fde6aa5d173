package io.jrxe.rnic.transport;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.wire.port.InvokerLoop;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PolledPort;
import io.jrxe.wire.port.fault.FaultyPort;
import io.jrxe.wire.port.shm.ShmDirectory;
import io.jrxe.wire.port.shm.ShmPort;
import io.jrxe.wire.port.udp.PolledUdpPort;
import io.jrxe.wire.port.udp.PortInUseException;
import io.jrxe.wire.time.NicTime;

/**
 * A wire run by the program's thread: whichever thread polls a CQ, posts or waits runs the NIC's
 * duty cycle ({@link InvokerLoop}), with a standby thread for when none does (on the shared-memory
 * wire the standby thread may also run it alone). The wire is real UDP
 * sockets, or the shared-memory rings of {@link ShmPort}.
 */
public final class InvokedTransport implements NicTransport {
    private final PolledPort wire;
    private final PacketPort port;
    private final InvokerLoop loop;
    private final NicExecutor executor;
    /** Whether the program's thread runs the loop as it polls, waits and posts; else only the standby does. */
    private final boolean programRuns;

    private InvokedTransport(PolledPort wire, DeviceConfig config, boolean programRuns) {
        this.wire = wire;
        this.loop = programRuns ? new InvokerLoop(wire, config.name()) : InvokerLoop.runByStandby(wire, config.name());
        this.programRuns = programRuns;
        this.port = FaultyPort.wrap(wire, config.faults(), loop);
        this.executor = new InvokerExecutor(loop);
    }

    /**
     * A socket on the device's first address, port 4791 unless configured otherwise, run by whoever invokes it, doing
     * the configuration's faults.
     *
     * @throws PortInUseException when the address cannot be bound (taken, or not an address of this host)
     */
    public static InvokedTransport bindUdp(DeviceConfig config) throws PortInUseException {
        PolledUdpPort port = UdpBinding.toPeers(PolledUdpPort.bind(UdpBinding.local(config), UdpBinding.rawOpener(config)),
                config);
        return new InvokedTransport(port, config, true);
    }

    /**
     * A ring in {@code directory} for the device's first address and UDP port (any address: the shared-memory wire
     * needs no interface), run by whoever invokes it, doing the configuration's faults.
     *
     * @throws PortInUseException when another live device has the ring, or it cannot be made
     */
    public static InvokedTransport bindShm(DeviceConfig config, ShmDirectory directory) throws PortInUseException {
        return bindShm(config, directory, true);
    }

    /**
     * {@link #bindShm(DeviceConfig, ShmDirectory)}; with {@code programRuns} false the program's thread never invokes
     * the loop or waits in it ({@link #invoker} is null) and its standby thread is the device's NIC thread, all the
     * time: the program posts and polls while the NIC works, and a post queues its work for the standby
     * ({@link InvokerLoop#runByStandby}).
     */
    public static InvokedTransport bindShm(DeviceConfig config, ShmDirectory directory, boolean programRuns)
            throws PortInUseException {
        ShmPort port = UdpBinding.toPeers(ShmPort.bind(UdpBinding.local(config), directory, ShmPort.DEFAULT_RING_BYTES),
                config);
        try {
            return new InvokedTransport(port, config, programRuns);
        } catch (RuntimeException e) {
            port.close();
            throw e;
        }
    }

    /** The port: the wire's, or a {@link FaultyPort} over it when the configuration has faults. */
    @Override
    public PacketPort port() {
        return port;
    }

    /** The wire's port beneath any faults, which the invoker polls. */
    public PolledPort wirePort() {
        return wire;
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
        return programRuns ? loop : null;
    }

    @Override
    public void close() {
        loop.close();
    }

    @Override
    public String toString() {
        return (wire instanceof ShmPort ? "shared memory" : "UDP") + (programRuns ? ", invoked by the program"
                : ", run by its standby thread");
    }
}
