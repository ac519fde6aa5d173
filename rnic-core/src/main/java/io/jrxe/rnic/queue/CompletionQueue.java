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
 * <p>The two sides touch as few cache lines as they can, since each line one side writes and the
 * other reads moves between their cores: an entry is 32 bytes of one array (two per line, where
 * ten arrays of one field each would be ten lines per completion), the tail (the NIC's) and the
 * head (the poller's) sit on lines of their own, and the NIC keeps the last head it read and reads
 * it again only when the ring looks full.
 *
 * <p>When the ring is full the NIC cannot complete work: {@link #push} returns false and the
 * device raises the CQ error event and moves the CQ's QPs to the error state, as real
 * devices do. Request-notify arms the CQ for its {@link CompletionChannel}.
 */
public final class CompletionQueue {
    private static final VarHandle INDEXES = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle ARMED;
    private static final VarHandle SLEEPER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ARMED = lookup.findVarHandle(CompletionQueue.class, "armed", int.class);
            SLEEPER = lookup.findVarHandle(CompletionQueue.class, "sleeper", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /*
     * The counters live in one array, the NIC's and the poller's 64 bytes or more apart with 8 longs of padding
     * before, between and after, as in WorkQueue.
     */
    /** Completions published: written by the NIC (release), read by the poller (acquire). */
    private static final int TAIL = 8;
    /** What the NIC last read of {@link #HEAD}: at most the real value (NIC only). */
    private static final int HEAD_SEEN = 9;
    /** Completions polled: written by the poller (release), read by the NIC (acquire). */
    private static final int HEAD = 18;
    private static final int INDEX_SLOTS = 27;

    /** Notification arming states. */
    private static final int DISARMED = 0;
    private static final int ARMED_NEXT = 1;
    private static final int ARMED_SOLICITED = 2;

    private final int handle;
    private final CompletionChannel channel;
    private final Holders holders = new Holders();
    private final long[] indexes = new long[INDEX_SLOTS];
    private Ring ring;
    private volatile boolean overflowed;

    @SuppressWarnings("unused") // accessed through ARMED
    private volatile int armed;
    @SuppressWarnings("unused") // accessed through SLEEPER
    private volatile Thread sleeper;

    /**
     * The entries, {@link #WORDS} longs each: the wr_id; byte_len and imm_data; qp_num, src_qp (24 bits each, as
     * QPNs are) and pkey_index; vendor_err, status, opcode and wc_flags. Only {@link #write} and {@link #fill}
     * know where each field sits.
     */
    private static final class Ring {
        static final int WORDS = 4;
        private static final long U8 = 0xFFL;
        private static final long U16 = 0xFFFFL;
        private static final long U24 = 0xFF_FFFFL;
        private static final long U32 = 0xFFFF_FFFFL;
        private static final int IMM_SHIFT = 32;
        private static final int SRC_QP_SHIFT = 24;
        private static final int PKEY_SHIFT = 48;
        private static final int STATUS_SHIFT = 32;
        private static final int OPCODE_SHIFT = 40;
        private static final int FLAGS_SHIFT = 48;
        final int mask;
        final long[] words;

        Ring(int capacity) {
            mask = capacity - 1;
            words = new long[capacity * WORDS];
        }

        int capacity() {
            return mask + 1;
        }

        int at(long counter) {
            return (int) (counter & mask) * WORDS;
        }

        void write(long counter, long wrId, WcStatus status, WcOpcode opcode, int vendorErr, int byteLen, int immData,
                   int qpNum, int srcQp, int wcFlags, int pkeyIndex) {
            long[] w = words;
            int i = at(counter);
            w[i] = wrId;
            w[i + 1] = (byteLen & U32) | (immData & U32) << IMM_SHIFT;
            w[i + 2] = (qpNum & U24) | (srcQp & U24) << SRC_QP_SHIFT | (pkeyIndex & U16) << PKEY_SHIFT;
            w[i + 3] = (vendorErr & U32) | (long) status.ordinal() << STATUS_SHIFT
                    | (opcode.verbsValue() & U8) << OPCODE_SHIFT | (wcFlags & U8) << FLAGS_SHIFT;
        }

        void fill(WorkCompletion out, long counter) {
            long[] w = words;
            int i = at(counter);
            long lengths = w[i + 1];
            long qps = w[i + 2];
            long rest = w[i + 3];
            WorkCompletionFiller.fill(out, w[i], WcStatus.of((int) (rest >>> STATUS_SHIFT & U8)),
                    WcOpcode.of((int) (rest >>> OPCODE_SHIFT & U8)), (int) rest, (int) lengths,
                    (int) (lengths >>> IMM_SHIFT), (int) (qps & U24), (int) (qps >>> SRC_QP_SHIFT & U24),
                    (int) (rest >>> FLAGS_SHIFT & U8), (int) (qps >>> PKEY_SHIFT & U16));
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
        return (int) ((long) INDEXES.getAcquire(indexes, TAIL) - (long) INDEXES.getAcquire(indexes, HEAD));
    }

    /** The ring index the next completion goes to (NIC thread only; for traces). */
    public int nextIndex() {
        return (int) (indexes[TAIL] & ring.mask);
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
        long[] x = indexes;
        long t = x[TAIL];
        if (t - x[HEAD_SEEN] >= r.capacity()) {
            x[HEAD_SEEN] = (long) INDEXES.getAcquire(x, HEAD);
            if (t - x[HEAD_SEEN] >= r.capacity()) {
                overflowed = true;
                return false;
            }
        }
        r.write(t, wrId, status, opcode, vendorErr, byteLen, immData, qpNum, srcQp, wcFlags, pkeyIndex);
        INDEXES.setRelease(x, TAIL, t + 1);
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
        if ((long) INDEXES.getAcquire(indexes, TAIL) == indexes[HEAD]) {
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
        long[] x = indexes;
        long h = x[HEAD];
        long available = (long) INDEXES.getAcquire(x, TAIL) - h;
        int n = (int) Math.min(Math.min(available, max), out.length);
        for (int k = 0; k < n; k++) {
            r.fill(out[k], h + k);
        }
        if (n > 0) {
            INDEXES.setRelease(x, HEAD, h + n);
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
        long[] x = indexes;
        long h = (long) INDEXES.getAcquire(x, HEAD);
        long t = x[TAIL];
        int size = ringSize(entries);
        if (t - h > entries) {
            return false;
        }
        Ring r = new Ring(size);
        for (long c = h; c < t; c++) {
            System.arraycopy(old.words, old.at(c), r.words, r.at(c), Ring.WORDS);
        }
        x[HEAD_SEEN] = h;
        ring = r;
        VarHandle.releaseFence();
        return true;
    }

    @Override
    public String toString() {
        return "CQ " + handle;
    }
}
