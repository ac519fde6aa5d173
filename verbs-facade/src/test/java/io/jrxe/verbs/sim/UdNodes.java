package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.sim.SimulatedNetwork;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Several emulated NICs ({@link UdNode}s) on one simulated network: the fixture of the multicast tests there.
 * Everything runs on the test's thread in virtual time.
 */
final class UdNodes implements AutoCloseable {
    private static final AtomicLong NAMES = new AtomicLong();

    final SimulatedNetwork network;
    final List<UdNode> nodes = new ArrayList<>();
    private final Arena arena = Arena.ofShared();

    UdNodes(long seed) {
        network = new SimulatedNetwork(seed);
    }

    UdNode add(String address, int qps) throws Exception {
        UdNode n = new UdNode(Verbs.emulated().createSimulated(DeviceConfig.of("mc" + NAMES.incrementAndGet(),
                InetAddress.getByName(address)).withInterfaceMtu(1500), network), qps, arena);
        nodes.add(n);
        return n;
    }

    /** Runs virtual time for a while, collecting every node's completions. */
    void run(long virtualNanos) {
        network.time().runFor(virtualNanos);
        nodes.forEach(UdNode::drain);
    }

    @Override
    public void close() {
        for (UdNode n : nodes) {
            Verbs.emulated().remove(n.device);
        }
        arena.close();
    }
}
