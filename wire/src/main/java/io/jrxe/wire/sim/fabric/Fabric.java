package io.jrxe.wire.sim.fabric;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.Frame;
import io.jrxe.wire.sim.PacketPath;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.VirtualTime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Links and switches that carry a {@link SimulatedNetwork}'s packets: each host's port sends onto its own link
 * (a queue with no limit at the line rate), switches forward by the receiver's address into output queues that
 * mark, drop or pause as their {@link QueueSettings} say. It counts the RoCE bytes delivered per pair of hosts.
 */
public final class Fabric implements PacketPath {
    private VirtualTime time;
    private SplittableRandom random;
    private Ends ends;
    private final Map<PeerAddress, OutputQueue> hostQueues = new LinkedHashMap<>();
    private final List<Switch> switches = new ArrayList<>();
    private final Map<HostPair, Long> delivered = new HashMap<>();
    private long dropped;

    private Fabric() {
    }

    /** A fabric with no links yet, carrying {@code network}'s packets from now on. */
    public static Fabric on(SimulatedNetwork network) {
        Fabric f = new Fabric();
        network.path(f);
        return f;
    }

    @Override
    public void install(VirtualTime t, SplittableRandom r, Ends e) {
        time = t;
        random = r;
        ends = e;
    }

    SplittableRandom random() {
        return random;
    }

    public Switch addSwitch(String name, QueueSettings settings) {
        Switch s = new Switch(name, settings, this);
        switches.add(s);
        return s;
    }

    /** A cable between a host's port and a switch, {@code link} each way; the switch routes the host's address to it. */
    public void attach(PeerAddress host, Switch to, Link link) {
        if (hostQueues.containsKey(host)) {
            throw new IllegalArgumentException(host + " is attached to the fabric already");
        }
        OutputQueue up = new OutputQueue(host.address().getHostAddress() + ">" + to.name(), link, QueueSettings.HOST,
                time, random);
        up.connect(to);
        to.feedBy(up);
        hostQueues.put(host, up);
        OutputQueue down = to.output(to.name() + ">" + host.address().getHostAddress(), link);
        down.connect((frame, upstream) -> arrived(frame));
        to.route(host, down);
    }

    /** A cable between two switches, {@code link} each way; routes are the caller's to add. */
    public OutputQueue[] connect(Switch a, Switch b, Link link) {
        OutputQueue ab = a.output(a.name() + ">" + b.name(), link);
        OutputQueue ba = b.output(b.name() + ">" + a.name(), link);
        ab.connect(b);
        ba.connect(a);
        b.feedBy(ab);
        a.feedBy(ba);
        return new OutputQueue[] {ab, ba};
    }

    @Override
    public void carry(Frame frame) {
        OutputQueue first = hostQueues.get(frame.source);
        if (first == null || !first.offer(frame, null)) {
            dropped(frame);
        }
    }

    private void arrived(Frame frame) {
        delivered.merge(new HostPair(frame.source, frame.receiver), (long) frame.roce.length, Long::sum);
        ends.arrived(frame);
    }

    void dropped(Frame frame) {
        dropped++;
        ends.dropped(frame);
    }

    /** The RoCE bytes (BTH to ICRC) delivered from one host to another, resent packets included. */
    public long deliveredBytes(HostPair pair) {
        return delivered.getOrDefault(pair, 0L);
    }

    /** Frames the fabric dropped: full queues, and frames with no route. */
    public long dropped() {
        return dropped;
    }

    /** The queue a host's port sends into (its own link). */
    public OutputQueue hostQueue(PeerAddress host) {
        return hostQueues.get(host);
    }

    public List<Switch> switches() {
        return List.copyOf(switches);
    }

    /** The virtual clock the fabric's links and queues run on (the network's). */
    public VirtualTime clock() {
        return time;
    }
}
