package io.jrxe.wire.sim.fabric;

import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.sim.Frame;
import io.jrxe.wire.sim.VirtualTime;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

/**
 * The queue at the near end of a {@link Link}: frames wait here, in arrival order, and go onto the link one at a
 * time, each taking its serialisation time, then its propagation delay to the far {@link Hop}. A switch's queue
 * marks on enqueue and drops what does not fit; a host's has no limit. PFC from the far end pauses it between
 * frames (a frame being sent finishes).
 */
public final class OutputQueue {
    private final String name;
    private final Link link;
    private final QueueSettings settings;
    private final VirtualTime time;
    private final SplittableRandom random;
    private final ArrayDeque<Frame> frames = new ArrayDeque<>();
    /** The ingress each waiting frame came in by ({@link Ingress#NONE} for a host's own frames), in the same order. */
    private final ArrayDeque<Ingress> sources = new ArrayDeque<>();
    /**
     * The frames on the link, past serialisation, in the order they reach the far end: every frame takes the link's
     * one delay after the one before it left, so they arrive in the order they were sent.
     */
    private final ArrayDeque<Frame> propagating = new ArrayDeque<>();
    /** The frame being serialised onto the link, or null. */
    private Frame serialising;
    /** The timers' tasks, made once: a lambda per frame would be an object per frame. */
    private final Runnable serialised = this::serialised;
    private final Runnable reachFarEnd = this::reachFarEnd;
    private Hop far;
    private long depthBytes;
    private boolean sending;
    private boolean paused;
    private long pausedSince;
    private long pausedNanos;
    private long pausesReceived;
    private long maxDepthBytes;
    /** The sum of depth × time since {@link #lastChange}'s first value: the mean depth's numerator. */
    private double depthByteNanos;
    private long lastChange;
    private long marks;
    private long drops;
    private long sentFrames;
    private long busyNanos;

    OutputQueue(String name, Link link, QueueSettings settings, VirtualTime time, SplittableRandom random) {
        this.name = name;
        this.link = link;
        this.settings = settings;
        this.time = time;
        this.random = random;
    }

    void connect(Hop farEnd) {
        far = farEnd;
    }

    /**
     * A frame joins the queue: marked CE as the queue's depth says (ECN-capable frames only), or refused when it
     * does not fit the buffer.
     *
     * @param from the ingress it came in by, whose PFC accounting it counts in; null for a host's own frame
     * @return false when dropped
     */
    boolean offer(Frame frame, Ingress from) {
        int size = frame.wireBytes();
        if (depthBytes + size > settings.bufferBytes()) {
            drops++;
            return false;
        }
        int ecn = Ecn.of(frame.trafficClass);
        if ((ecn == Ecn.ECT_0 || ecn == Ecn.ECT_1) && settings.marking().mark(depthBytes, random)) {
            frame.trafficClass |= Ecn.CE;
            marks++;
        }
        changeDepth(size);
        frames.add(frame);
        sources.add(from == null ? Ingress.NONE : from);
        if (from != null) {
            from.held(size);
        }
        sendNext();
        return true;
    }

    private void sendNext() {
        if (sending || paused || frames.isEmpty()) {
            return;
        }
        Frame frame = frames.poll();
        Ingress from = sources.poll();
        int size = frame.wireBytes();
        changeDepth(-size);
        from.released(size);
        sending = true;
        serialising = frame;
        long serialisation = link.serialisationNanos(size);
        sentFrames++;
        busyNanos += serialisation;
        time.schedule(serialisation, serialised);
    }

    /** The frame being sent is on the link: it propagates to the far end, and the next one may start. */
    private void serialised() {
        sending = false;
        propagating.add(serialising);
        serialising = null;
        time.schedule(link.delayNanos(), reachFarEnd);
        sendNext();
    }

    private void reachFarEnd() {
        far.arrive(propagating.poll(), this);
    }

    private void changeDepth(long by) {
        long now = time.nanoTime();
        depthByteNanos += (double) depthBytes * (now - lastChange);
        lastChange = now;
        depthBytes += by;
        maxDepthBytes = Math.max(maxDepthBytes, depthBytes);
    }

    /** The far end's PAUSE arrived: nothing more goes onto the link until it resumes. */
    void pause() {
        if (!paused) {
            paused = true;
            pausedSince = time.nanoTime();
            pausesReceived++;
        }
    }

    /** The far end's resume arrived. */
    void resume() {
        if (paused) {
            paused = false;
            pausedNanos += time.nanoTime() - pausedSince;
            sendNext();
        }
    }

    public String name() {
        return name;
    }

    public Link link() {
        return link;
    }

    /** Bytes waiting now (the frame on the wire not included). */
    public long depthBytes() {
        return depthBytes;
    }

    public long maxDepthBytes() {
        return maxDepthBytes;
    }

    /** The depth averaged over time, from time 0 to now. */
    public double meanDepthBytes() {
        long now = time.nanoTime();
        double total = depthByteNanos + (double) depthBytes * (now - lastChange);
        return now == 0 ? 0 : total / now;
    }

    public long marks() {
        return marks;
    }

    public long drops() {
        return drops;
    }

    public long sentFrames() {
        return sentFrames;
    }

    /** The time the link spent sending, counting the frame on the wire now in full. */
    public long busyNanos() {
        return busyNanos;
    }

    public boolean paused() {
        return paused;
    }

    /** Times the far end paused this queue. */
    public long pausesReceived() {
        return pausesReceived;
    }

    /** The time this queue spent paused, to now. */
    public long pausedNanos() {
        return pausedNanos + (paused ? time.nanoTime() - pausedSince : 0);
    }

    @Override
    public String toString() {
        return name;
    }
}
