package io.jrxe.wire.sim.fabric;

import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.Frame;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An output-queued switch: a frame that arrives goes to the output queue its receiver's address is routed to, and
 * counts against the ingress it came by until it leaves (what PFC watches).
 */
public final class Switch implements Hop {
    private final String name;
    private final QueueSettings settings;
    private final Fabric fabric;
    private final Map<PeerAddress, OutputQueue> routes = new HashMap<>();
    private final Map<OutputQueue, Ingress> ingresses = new HashMap<>();
    private final List<OutputQueue> outputs = new ArrayList<>();

    Switch(String name, QueueSettings settings, Fabric fabric) {
        this.name = name;
        this.settings = settings;
        this.fabric = fabric;
    }

    /** A link from {@code upstream} (a host's or another switch's queue) feeds this switch. */
    void feedBy(OutputQueue upstream) {
        ingresses.put(upstream, new Ingress(upstream, settings.pfc(), fabric.clock(), upstream.link().delayNanos()));
    }

    /** A queue of this switch onto a link of {@code link}'s rate and delay. */
    OutputQueue output(String queueName, Link link) {
        OutputQueue q = new OutputQueue(queueName, link, settings, fabric.clock(), fabric.random());
        outputs.add(q);
        return q;
    }

    /** Frames for {@code receiver} leave by {@code queue}. */
    void route(PeerAddress receiver, OutputQueue queue) {
        routes.put(receiver, queue);
    }

    @Override
    public void arrive(Frame frame, OutputQueue upstream) {
        OutputQueue out = routes.get(frame.receiver);
        if (out == null) {
            fabric.dropped(frame);
            return;
        }
        if (!out.offer(frame, ingresses.get(upstream))) {
            fabric.dropped(frame);
        }
    }

    public String name() {
        return name;
    }

    public List<OutputQueue> outputs() {
        return List.copyOf(outputs);
    }

    /** The output queue frames for {@code receiver} leave by, or null when it has no route. */
    public OutputQueue queueFor(PeerAddress receiver) {
        return routes.get(receiver);
    }

    /** The ingress fed by {@code upstream}'s link. */
    public Ingress ingress(OutputQueue upstream) {
        return ingresses.get(upstream);
    }

    /** PAUSE frames this switch sent, over all its ingresses. */
    public long pausesSent() {
        return ingresses.values().stream().mapToLong(Ingress::pausesSent).sum();
    }

    @Override
    public String toString() {
        return name;
    }
}
