package io.jrxe.wire.sim.fabric;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.Frame;
import io.jrxe.wire.sim.PacketPath;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.VirtualTime;

import java.util.ArrayDeque;
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
    /** Each attached host's number, in the order attached: its row and column of {@link #delivered}. */
    private final Map<PeerAddress, Integer> hostNumbers = new HashMap<>();
    /** RoCE bytes delivered, by receiver's number then sender's: counted per frame with no key object. */
    private long[][] delivered = new long[0][0];
    /** Frames that arrived or were dropped, for {@link #frame} to hand out again. */
    private final ArrayDeque<Frame> spareFrames = new ArrayDeque<>();
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
        int number = hostNumbers.size();
        hostNumbers.put(host, number);
        long[][] grown = new long[number + 1][number + 1];
        for (int r = 0; r < number; r++) {
            System.arraycopy(delivered[r], 0, grown[r], 0, number);
        }
        delivered = grown;
        OutputQueue down = to.output(to.name() + ">" + host.address().getHostAddress(), link);
        down.connect((frame, upstream) -> arrived(frame, number));
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
    public Frame frame() {
        Frame spare = spareFrames.poll();
        return spare != null ? spare : new Frame();
    }

    @Override
    public void carry(Frame frame) {
        OutputQueue first = hostQueues.get(frame.source);
        if (first == null || !first.offer(frame, null)) {
            dropped(frame);
        }
    }

    /** A frame reached the host numbered {@code receiver} (a frame in the fabric came from an attached host). */
    private void arrived(Frame frame, int receiver) {
        delivered[receiver][hostNumbers.get(frame.source)] += frame.roce.length;
        ends.arrived(frame);
        spareFrames.push(frame);
    }

    void dropped(Frame frame) {
        dropped++;
        ends.dropped(frame);
        spareFrames.push(frame);
    }

    /** The RoCE bytes (BTH to ICRC) delivered from one host to another, resent packets included. */
    public long deliveredBytes(HostPair pair) {
        Integer sender = hostNumbers.get(pair.sender());
        Integer receiver = hostNumbers.get(pair.receiver());
        return sender == null || receiver == null ? 0 : delivered[receiver][sender];
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
