package io.jrxe.benchmarks;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.VirtualTime;
import io.jrxe.wire.sim.fabric.HostPair;
import io.jrxe.wire.sim.fabric.Link;
import io.jrxe.wire.sim.fabric.QueueSettings;
import io.jrxe.wire.sim.fabric.RedMarking;
import io.jrxe.wire.sim.fabric.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * One packet through the congestion fabric's incast (a sender's link, the switch, the receiver's link) in virtual
 * time, from its port's send to its delivery: what `jrxe fabric` costs per packet besides the NICs. The port's copy
 * of the packet and the event queue's entries are part of it; {@code -prof gc}'s {@code gc.alloc.rate.norm} shows
 * the bytes per packet.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FabricBenchmark {
    private static final int SENDERS = 8;

    private SimulatedNetwork network;
    private VirtualTime time;
    private PeerAddress[] senders;
    private PeerAddress receiver;
    /** The smallest RoCE packet: a BTH and an ICRC (the copies a port makes are of it, small next to the rest). */
    private final byte[] roce = new byte[16];
    private int next;

    @Setup
    public void build() {
        network = new SimulatedNetwork(1);
        time = network.time();
        Topology incast = Topology.incast(network, SENDERS, new Link(25_000_000_000L, 1_000),
                new QueueSettings(256 << 10, RedMarking.OFF, null));
        senders = new PeerAddress[SENDERS];
        for (int i = 0; i < SENDERS; i++) {
            HostPair flow = incast.flows().get(i);
            senders[i] = flow.sender();
            receiver = flow.receiver();
            network.attach(senders[i]);
        }
        network.attach(receiver);
    }

    @Benchmark
    public long packetThroughIncast() {
        network.inject(senders[next++ & (SENDERS - 1)], receiver, roce, 49_152);
        while (time.step()) {
            // the packet's serialisations and propagations, in virtual time
        }
        return network.delivered();
    }
}
