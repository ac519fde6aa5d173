package io.jrxe.wire.sim.fabric;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.SimulatedNetwork;

import java.util.ArrayList;
import java.util.List;

/**
 * A fabric built in one of the shapes congestion is studied on, with the flows it is for: senders at 10.1.0.x,
 * receivers at 10.2.0.x, a victim flow's ends at 10.3.0.1 and 10.4.0.1. Every host link has the same rate and
 * delay; every switch queue the same settings.
 *
 * @param flows      the flows, the victim's (if any) last
 * @param bottleneck the queue the flows that congest meet in
 * @param victim     the index in {@code flows} of the victim flow, or -1
 */
public record Topology(String kind, Fabric fabric, List<HostPair> flows, OutputQueue bottleneck, int victim) {
    public static final String KINDS = "incast, dumbbell, victim";

    /** Builds {@code kind} on the network, or explains the kinds there are. */
    public static Topology of(String kind, SimulatedNetwork network, int senders, Link link, QueueSettings queues) {
        return switch (kind) {
            case "incast" -> incast(network, senders, link, queues);
            case "dumbbell" -> dumbbell(network, senders, link, queues);
            case "victim" -> victim(network, senders, link, queues);
            default -> throw new IllegalArgumentException("no topology named '" + kind + "': there are " + KINDS);
        };
    }

    /** {@code senders} hosts and one receiver on one switch: the receiver's link is the bottleneck. */
    public static Topology incast(SimulatedNetwork network, int senders, Link link, QueueSettings queues) {
        Fabric fabric = Fabric.on(network);
        Switch tor = fabric.addSwitch("sw", queues);
        PeerAddress receiver = receiver(0);
        fabric.attach(receiver, tor, link);
        List<HostPair> flows = new ArrayList<>();
        for (int i = 0; i < count(senders); i++) {
            fabric.attach(sender(i), tor, link);
            flows.add(new HostPair(sender(i), receiver));
        }
        return new Topology("incast", fabric, List.copyOf(flows), tor.queueFor(receiver), -1);
    }

    /** Senders on switch A, as many receivers on switch B, one link of the hosts' rate between: flow i to receiver i. */
    public static Topology dumbbell(SimulatedNetwork network, int senders, Link link, QueueSettings queues) {
        Fabric fabric = Fabric.on(network);
        Switch a = fabric.addSwitch("swA", queues);
        Switch b = fabric.addSwitch("swB", queues);
        OutputQueue[] core = fabric.connect(a, b, link);
        List<HostPair> flows = new ArrayList<>();
        for (int i = 0; i < count(senders); i++) {
            fabric.attach(sender(i), a, link);
            fabric.attach(receiver(i), b, link);
            a.route(receiver(i), core[0]);
            b.route(sender(i), core[1]);
            flows.add(new HostPair(sender(i), receiver(i)));
        }
        return new Topology("dumbbell", fabric, List.copyOf(flows), core[0], -1);
    }

    /**
     * An incast whose senders reach the receiver's switch through a first switch, with one more flow, the victim,
     * from that first switch to a receiver of its own on the second. The link between the switches is fast enough
     * for all of them (the hosts' rate times senders + 1), so only the receiver's link is congested; the victim's
     * path is not, and it slows only when PFC pauses the link it shares with the incast.
     */
    public static Topology victim(SimulatedNetwork network, int senders, Link link, QueueSettings queues) {
        Fabric fabric = Fabric.on(network);
        Switch edge = fabric.addSwitch("sw1", queues);
        Switch tor = fabric.addSwitch("sw2", queues);
        int n = count(senders);
        OutputQueue[] core = fabric.connect(edge, tor, link.withRate(Math.multiplyExact(link.bitsPerSecond(), n + 1L)));
        PeerAddress receiver = receiver(0);
        PeerAddress victimSender = PeerAddress.of("10.3.0.1");
        PeerAddress victimReceiver = PeerAddress.of("10.4.0.1");
        fabric.attach(receiver, tor, link);
        fabric.attach(victimReceiver, tor, link);
        edge.route(receiver, core[0]);
        edge.route(victimReceiver, core[0]);
        List<HostPair> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fabric.attach(sender(i), edge, link);
            tor.route(sender(i), core[1]);
            flows.add(new HostPair(sender(i), receiver));
        }
        fabric.attach(victimSender, edge, link);
        tor.route(victimSender, core[1]);
        flows.add(new HostPair(victimSender, victimReceiver));
        return new Topology("victim", fabric, List.copyOf(flows), tor.queueFor(receiver), n);
    }

    private static int count(int senders) {
        if (senders < 1 || senders > 250) {
            throw new IllegalArgumentException("a topology needs 1 to 250 senders, not " + senders);
        }
        return senders;
    }

    public static PeerAddress sender(int i) {
        return PeerAddress.of("10.1.0." + (i + 1));
    }

    public static PeerAddress receiver(int i) {
        return PeerAddress.of("10.2.0." + (i + 1));
    }

    /** Every switch's output queues, switch by switch. */
    public List<OutputQueue> switchQueues() {
        return fabric.switches().stream().flatMap(s -> s.outputs().stream()).toList();
    }
}
