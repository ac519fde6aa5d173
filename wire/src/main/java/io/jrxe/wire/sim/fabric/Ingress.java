package io.jrxe.wire.sim.fabric;

import io.jrxe.wire.sim.VirtualTime;

/**
 * A switch's side of one link that feeds it: the bytes it holds that came in by this link, anywhere in its output
 * queues, and, with PFC, whether it has paused the queue at the link's far end.
 */
public final class Ingress {
    /** The ingress of a host's own frames: nothing to account. */
    static final Ingress NONE = new Ingress(null, null, null, 0);

    private final OutputQueue upstream;
    private final PfcThresholds pfc;
    private final VirtualTime time;
    private final long pauseDelayNanos;
    /** The upstream queue's pause and resume as timer tasks, made once. */
    private final Runnable pauseUpstream;
    private final Runnable resumeUpstream;
    private long heldBytes;
    private boolean pausing;
    private long pausesSent;

    Ingress(OutputQueue upstream, PfcThresholds pfc, VirtualTime time, long pauseDelayNanos) {
        this.upstream = upstream;
        this.pfc = pfc;
        this.time = time;
        this.pauseDelayNanos = pauseDelayNanos;
        this.pauseUpstream = upstream == null ? null : upstream::pause;
        this.resumeUpstream = upstream == null ? null : upstream::resume;
    }

    void held(int bytes) {
        heldBytes += bytes;
        if (pfc != null && !pausing && heldBytes >= pfc.xoffBytes()) {
            pausing = true;
            pausesSent++;
            // The PAUSE frame crosses the link back; what the upstream queue starts before it arrives still comes.
            time.schedule(pauseDelayNanos, pauseUpstream);
        }
    }

    void released(int bytes) {
        if (this == NONE) {
            return;
        }
        heldBytes -= bytes;
        if (pausing && heldBytes <= pfc.xonBytes()) {
            pausing = false;
            time.schedule(pauseDelayNanos, resumeUpstream);
        }
    }

    /** PAUSE frames sent to the upstream queue. */
    public long pausesSent() {
        return pausesSent;
    }
}
