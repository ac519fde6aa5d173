package io.jrxe.rnic.queue;

import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.resource.Holders;

/**
 * A shared receive queue: receive WQEs that any of its QPs may consume. Armed with a limit, it
 * raises SRQ_LIMIT_REACHED once when the number of posted WQEs falls below it (and disarms).
 */
public final class SharedReceiveQueue {
    private final int handle;
    private final ProtectionDomain pd;
    private final int maxSge;
    private final WorkQueue<ReceiveWqe> queue;
    private final Holders holders = new Holders();
    private volatile int limit;

    public SharedReceiveQueue(int handle, ProtectionDomain pd, int maxWr, int maxSge) {
        this.handle = handle;
        this.pd = pd;
        this.maxSge = maxSge;
        this.queue = new WorkQueue<>(maxWr, i -> new ReceiveWqe(maxSge));
    }

    public int handle() {
        return handle;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public int maxWr() {
        return queue.capacity();
    }

    public int maxSge() {
        return maxSge;
    }

    public WorkQueue<ReceiveWqe> queue() {
        return queue;
    }

    public Holders holders() {
        return holders;
    }

    /** 0 when not armed. */
    public int limit() {
        return limit;
    }

    /** Arms the limit event (ibv_modify_srq with IBV_SRQ_LIMIT); 0 disarms. */
    public void arm(int newLimit) {
        if (newLimit < 0 || newLimit > queue.capacity()) {
            throw new IllegalArgumentException("SRQ limit " + newLimit + " is out of range 0.." + queue.capacity());
        }
        limit = newLimit;
    }

    /**
     * NIC thread, after consuming a WQE: true once when the posted count fell below the armed
     * limit (the caller raises SRQ_LIMIT_REACHED); the limit is then disarmed.
     */
    public boolean limitReached() {
        int l = limit;
        if (l > 0 && queue.depth() < l) {
            limit = 0;
            return true;
        }
        return false;
    }

    @Override
    public String toString() {
        return "SRQ " + handle;
    }
}
