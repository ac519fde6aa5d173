package io.jrxe.rnic.transport;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.fault.FaultyPort;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.SimulatedPort;
import io.jrxe.wire.time.NicTime;

/**
 * A port on a {@link SimulatedNetwork}: virtual time, every NIC of the network run by the test's
 * thread, commands inline, a run that replays exactly for its seed.
 */
public final class SimulatedTransport implements NicTransport {
    private final PacketPort port;
    private final NicTime time;

    private SimulatedTransport(PacketPort port, NicTime time) {
        this.port = port;
        this.time = time;
    }

    public static SimulatedTransport attach(SimulatedNetwork network, PeerAddress address) {
        return new SimulatedTransport(network.attach(address), network.time());
    }

    /**
     * A port for the device {@code config} describes, at its first address: ECN-capable if the device is, doing the
     * device's own faults on top of the network's.
     */
    public static SimulatedTransport attach(SimulatedNetwork network, DeviceConfig config) {
        SimulatedPort port = network.attach(PeerAddress.of(config.addresses().getFirst()));
        port.ecnCapable(config.ecnCapable());
        return new SimulatedTransport(FaultyPort.wrap(port, config.faults(), network.time()), network.time());
    }

    /** Any port run by the caller's thread on the given clock: a test's stand-in. */
    public static SimulatedTransport of(PacketPort port, NicTime time) {
        return new SimulatedTransport(port, time);
    }

    @Override
    public PacketPort port() {
        return port;
    }

    @Override
    public NicTime time() {
        return time;
    }

    @Override
    public NicExecutor executor() {
        return NicExecutor.INLINE;
    }

    @Override
    public boolean nicRunsElsewhere() {
        return false;
    }

    @Override
    public void close() {
        port.close();
    }

    @Override
    public String toString() {
        return "simulated network";
    }
}
