package io.jrxe.rnic.queue;

import io.jrxe.rnic.resource.Holders;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.spi.WorkCompletionFiller;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A completion queue: a power-of-two ring of completion entries with one producer, the NIC
 * thread, and one consumer, the application's poll. The two meet only at the ring's head and
 * tail counters (release on publish, acquire on read): no lock, no allocation per entry.
 *
 * <p>When the ring is full the NIC cannot complete work: {@link #push} returns false and the
 * device raises the CQ error event and moves the CQ's QPs to the error state, as real
 * devices do. Request-notify arms the CQ for its {@link CompletionChannel}.
 */
public final class CompletionQueue {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle ARMED;
    private static final VarHandle SLEEPER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(CompletionQueue.class, "head", long.class);
            TAIL = lookup.findVarHandle(CompletionQueue.class, "tail", long.class);
            ARMED = lookup.findVarHandle(CompletionQueue.class, "armed", int.class);
            SLEEPER = lookup.findVarHandle(CompletionQueue.class, "sleeper", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Notification arming states. */
    private static final int DISARMED = 0;
    private static final int ARMED_NEXT = 1;
    private static final int ARMED_SOLICITED = 2;

    private final int handle;
    private final CompletionChannel channel;
    private final Holders holders = new Holders();
    private Ring ring;
    private volatile boolean overflowed;

    @SuppressWarnings("unused") // accessed through HEAD
    private volatile long head;
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile long tail;
    @SuppressWarnings("unused") // accessed through ARMED
    private volatile int armed;
    @SuppressWarnings("unused") // accessed through SLEEPER
    private volatile Thread sleeper;

    /** The entries, in parallel primitive arrays indexed by (counter & mask). */
    private static final class Ring {
        final int mask;
        final long[] wrId;
        final byte[] status;
        final short[] opcode;
        final int[] vendorErr;
        final int[] byteLen;
        final int[] immData;
        final int[] qpNum;
        final int[] srcQp;
        final byte[] wcFlags;
        final short[] pkeyIndex;

        Ring(int capacity) {
            mask = capacity - 1;
            wrId = new long[capacity];
            status = new byte[capacity];
            opcode = new short[capacity];
            vendorErr = new int[capacity];
            byteLen = new int[capacity];
            immData = new int[capacity];
            qpNum = new int[capacity];
            srcQp = new int[capacity];
            wcFlags = new byte[capacity];
            pkeyIndex = new short[capacity];
        }

        int capacity() {
            return mask + 1;
        }
    }

    /**
     * @param entries at least this many completions fit (rounded up to a power of two)
     */
    public CompletionQueue(int handle, int entries, CompletionChannel channel) {
        this.handle = handle;
        this.channel = channel;
        this.ring = new Ring(ringSize(entries));
    }

    static int ringSize(int entries) {
        if (entries < 1) {
            throw new IllegalArgumentException("a CQ needs at least 1 entry, not " + entries);
        }
        return Integer.highestOneBit(Math.max(1, entries - 1)) << 1;
    }

    public int handle() {
        return handle;
    }

    /** How many completions fit. */
    public int capacity() {
        return ring.capacity();
    }

    public CompletionChannel channel() {
        return channel;
    }

    public Holders holders() {
        return holders;
    }

    public boolean overflowed() {
        return overflowed;
    }

    /** Completions waiting to be polled. */
    public int depth() {
        return (int) ((long) TAIL.getAcquire(this) - (long) HEAD.getAcquire(this));
    }

    /** The ring index the next completion goes to (NIC thread only; for traces). */
    public int nextIndex() {
        return (int) ((long) TAIL.getOpaque(this) & ring.mask);
    }

    /**
     * Adds a completion (NIC thread only).
     *
     * @param solicited the completion is a receive of a message with the solicited event bit
     * @return false when the ring is full (overflow: the entry is lost and the CQ is in error)
     */
    public boolean push(long wrId, WcStatus status, WcOpcode opcode, int vendorErr, int byteLen, int immData,
                        int qpNum, int srcQp, int wcFlags, int pkeyIndex, boolean solicited) {
        Ring r = ring;
        long t = (long) TAIL.getOpaque(this);
        if (t - (long) HEAD.getAcquire(this) >= r.capacity()) {
            overflowed = true;
            return false;
        }
        int i = (int) (t & r.mask);
        r.wrId[i] = wrId;
        r.status[i] = (byte) status.ordinal();
        r.opcode[i] = (short) opcode.verbsValue();
        r.vendorErr[i] = vendorErr;
        r.byteLen[i] = byteLen;
        r.immData[i] = immData;
        r.qpNum[i] = qpNum;
        r.srcQp[i] = srcQp;
        r.wcFlags[i] = (byte) wcFlags;
        r.pkeyIndex[i] = (short) pkeyIndex;
        TAIL.setRelease(this, t + 1);
        // Store-load: the tail just published must be visible before the arming and the sleeper are read, as
        // they must be visible before requestNotify's and sleepUntilCompletion's callers read the tail; else
        // both sides read the other's old value (x86 reorders a store with a later load) and the wake-up is
        // lost while a completion waits.
        VarHandle.fullFence();
        Thread s = (Thread) SLEEPER.getOpaque(this);
        if (s != null && SLEEPER.compareAndSet(this, s, null)) {
            LockSupport.unpark(s); // once per sleep: the pushes after it, until the poller wakes, need not
        }
        notifyIfArmed(solicited || status != WcStatus.SUCCESS);
        return true;
    }

    /**
     * Parks the poller (the application thread) until the NIC pushes a completion, for at most {@code nanos}:
     * a poller that has nothing to do but wait sleeps without a completion channel's event and wakes within a
     * thread wake-up of the completion, where a timed park would wake only when its time (plus the kernel's
     * timer slack, 50 us by default) is up. Returns at once when a completion is already waiting; may return
     * early for no reason, as parks do. One sleeper at a time, the CQ's one poller.
     */
    public void sleepUntilCompletion(long nanos) {
        SLEEPER.setOpaque(this, Thread.currentThread());
        VarHandle.fullFence(); // the sleeper must be visible before the tail is read (see push)
        if ((long) TAIL.getAcquire(this) == (long) HEAD.getOpaque(this)) {
            LockSupport.parkNanos(this, nanos);
        }
        SLEEPER.setOpaque(this, null);
    }

    private void notifyIfArmed(boolean solicitedOrError) {
        int a = (int) ARMED.getAcquire(this);
        if (a == ARMED_NEXT || a == ARMED_SOLICITED && solicitedOrError) {
            if (ARMED.compareAndSet(this, a, DISARMED) && channel != null) {
                channel.signal(this);
            }
        }
    }

    /**
     * Takes up to {@code max} completions into the caller's reusable objects (application
     * thread; one poller per CQ at a time).
     *
     * @return how many were filled
     */
    public int poll(WorkCompletion[] out, int max) {
        Ring r = ring;
        long h = (long) HEAD.getOpaque(this);
        long available = (long) TAIL.getAcquire(this) - h;
        int n = (int) Math.min(Math.min(available, max), out.length);
        for (int k = 0; k < n; k++) {
            int i = (int) ((h + k) & r.mask);
            WorkCompletionFiller.fill(out[k], r.wrId[i], WcStatus.of(r.status[i]), WcOpcode.of(r.opcode[i]),
                    r.vendorErr[i], r.byteLen[i], r.immData[i], r.qpNum[i], r.srcQp[i], r.wcFlags[i] & 0xFF,
                    r.pkeyIndex[i] & 0xFFFF);
        }
        if (n > 0) {
            HEAD.setRelease(this, h + n);
        }
        return n;
    }

    /**
     * Arms the CQ: the next completion (or, with solicitedOnly, the next solicited or error
     * completion) signals the completion channel once (ibv_req_notify_cq).
     */
    public void requestNotify(boolean solicitedOnly) {
        ARMED.setRelease(this, solicitedOnly ? ARMED_SOLICITED : ARMED_NEXT);
        // See notifyIfArmed: the arming must be visible before the caller's next poll reads the tail.
        VarHandle.fullFence();
    }

    /**
     * Resizes the ring keeping the completions not yet polled (NIC thread, as a command; the
     * application must not poll this CQ meanwhile, as with ibv_resize_cq).
     *
     * @return false when the new size is smaller than the completions waiting (as rxe refuses
     *         cqe &lt; count, even when the rounded-up ring would hold them)
     */
    public boolean resize(int entries) {
        Ring old = ring;
        long h = (long) HEAD.getAcquire(this);
        long t = (long) TAIL.getAcquire(this);
        int size = ringSize(entries);
        if (t - h > entries) {
            return false;
        }
        Ring r = new Ring(size);
        for (long c = h; c < t; c++) {
            int from = (int) (c & old.mask);
            int to = (int) (c & r.mask);
            r.wrId[to] = old.wrId[from];
            r.status[to] = old.status[from];
            r.opcode[to] = old.opcode[from];
            r.vendorErr[to] = old.vendorErr[from];
            r.byteLen[to] = old.byteLen[from];
            r.immData[to] = old.immData[from];
            r.qpNum[to] = old.qpNum[from];
            r.srcQp[to] = old.srcQp[from];
            r.wcFlags[to] = old.wcFlags[from];
            r.pkeyIndex[to] = old.pkeyIndex[from];
        }
        ring = r;
        VarHandle.releaseFence();
        return true;
    }

    @Override
    public String toString() {
        return "CQ " + handle;
    }
}
