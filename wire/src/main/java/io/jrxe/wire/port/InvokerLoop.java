package io.jrxe.wire.port;

import io.jrxe.verbs.idle.PollWindow;
import io.jrxe.verbs.idle.TimerQueue;
import io.jrxe.wire.time.NicTime;
import io.netty.util.internal.PlatformDependent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A NIC's duty cycle (due timers, queued tasks, the datagrams waiting on its port) run by
 * whichever thread invokes it, as Aeron's agent invoker lets a client run an embedded media
 * driver. A program that busy-polls its CQ runs the NIC on its own thread between polls, so a
 * ping-pong needs one runnable thread per process instead of two: on a machine with fewer cores
 * than busy threads, every hand-off between two threads can cost a scheduler time slice.
 *
 * <p>A program that waits for a completion event runs the loop too ({@link #runUntil}), blocking
 * in the port's {@link PortWaiter} (a selector over its sockets, a look at its ring) between
 * cycles. The NIC must still progress when nobody polls (the passive target of a WRITE, a
 * program asleep on a CM event), so a standby thread watches: while
 * the program invoked the loop within the last {@link #HANDOVER_NANOS} it sleeps (looking again
 * less and less often, up to {@link #MAX_LOOK_NANOS}, while the program stays); after that it
 * runs the duty cycle itself, blocking in the waiter (and the next timer) between cycles.
 *
 * <p>A loop {@link #runByStandby run by its standby} is a NIC thread that never hands over: the program posts
 * and polls while it works, and a doorbell queues its work and wakes it if it sleeps.
 *
 * <p>Exclusion is one flag, taken without waiting: a thread that finds the loop held goes on
 * (its work is queued, and the holder drains the queue before it lets go and looks again after).
 * Whoever holds the loop owns the device's state, as the NIC thread does with an event loop;
 * the flag's release and acquire order that state between holders.
 */
public final class InvokerLoop implements NicTime, AutoCloseable {
    /** How long after the program's last invocation the standby thread takes the NIC over. */
    static final long HANDOVER_NANOS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("jrxe.invoker.handoverMicros", 200));
    /**
     * The longest the standby thread sleeps between two looks at a program that keeps invoking: its looks start
     * at {@link #HANDOVER_NANOS} apart and double while the program is there. Each look wakes a thread, and on a
     * busy 2-core machine a look every 200 us makes write-lat's p99.9 two to three times worse. A program that
     * stops invoking without {@link #leave} is therefore served again within this time at worst, well inside a
     * peer's ACK timeout (67 ms for the usual 14).
     */
    static final long MAX_LOOK_NANOS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("jrxe.invoker.maxLookMicros", 20_000));
    private static final int TASKS_PER_ROUND = 256;
    private static final int DATAGRAMS_PER_ROUND = 64;
    private static final int ROUNDS_PER_CYCLE = 8;

    private final AtomicBoolean held = new AtomicBoolean();
    private volatile Thread holder;
    private final Queue<Runnable> tasks = PlatformDependent.newMpscQueue();
    /** The holder's only. */
    private final TimerQueue timers = new TimerQueue();
    /** How the standby thread, once it runs the NIC, waits after its last work before it blocks (as a NIC thread). */
    private final PollWindow standbyWindow = new PollWindow(PollWindow.NIC_THREAD_NANOS);
    /** How the program's thread that runs the NIC while it waits for an event ({@link #runUntil}) does; one waiter at a time. */
    private final PollWindow waiterWindow = new PollWindow(PollWindow.EVENT_WAITER_NANOS);
    private final PolledPort port;
    private final PortWaiter portWaiter;
    private final Thread standby;
    /**
     * Whether a doorbell from a thread that does not hold the loop runs the duty cycle there when the loop is free;
     * else only the standby (and a control verb's caller) runs it.
     */
    private final boolean doorbellsRunIt;
    private volatile long lastInvoked;
    private volatile long nextDeadline = Long.MAX_VALUE;
    /** The program's thread while it runs the loop until an event (see runUntil); then the standby sleeps. */
    private volatile Thread waiter;
    /** Whoever blocks in the port's waiter (the standby or the program's waiting thread, never both) and until when. */
    private volatile boolean waiting;
    private volatile long waiterWakesAt = Long.MAX_VALUE;
    private volatile boolean closed;

    /** Starts the standby thread of a device whose packets arrive on {@code port}. */
    public InvokerLoop(PolledPort port, String deviceName) {
        this(port, deviceName, true, true);
    }

    /**
     * A loop whose standby thread runs the NIC all the time, as a NIC thread does: a post queues its work for it
     * instead of running a duty cycle on the poster's thread, so that the engines' state (the QP, its timers, the
     * ring's indexes) stays in one core's cache instead of moving between two with every doorbell (docs/shm.md).
     * Nobody may {@link #invoke} or {@link #runUntil} it.
     */
    public static InvokerLoop runByStandby(PolledPort port, String deviceName) {
        return new InvokerLoop(port, deviceName, true, false);
    }

    /** With {@code withStandby} false, only invocations run the NIC (tests of what an invocation does). */
    InvokerLoop(PolledPort port, String deviceName, boolean withStandby, boolean doorbellsRunIt) {
        this.port = port;
        this.doorbellsRunIt = doorbellsRunIt;
        try {
            this.portWaiter = port.openWaiter();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch the port of " + deviceName + ": " + e.getMessage(), e);
        }
        this.standby = new Thread(this::standbyLoop, "jrxe-nic-" + deviceName + "-standby");
        standby.setDaemon(true);
        if (withStandby) {
            standby.start();
        }
    }

    public PolledPort port() {
        return port;
    }

    /**
     * Runs the duty cycle on the calling thread unless another thread is running it, and counts
     * as the program being there: the standby thread stays asleep.
     *
     * @return how much work was done (timers, tasks and datagrams); 0 when the loop was held elsewhere
     */
    public int invoke() {
        lastInvoked = System.nanoTime();
        return runIfFree();
    }

    /**
     * The program stops invoking (it is about to sleep on a completion event): the standby thread
     * takes over now rather than after the handover time.
     */
    public void leave() {
        lastInvoked = 0;
        LockSupport.unpark(standby);
    }

    /**
     * Runs the NIC on the calling thread until {@code done} says so or {@code timeoutNanos} pass, blocking in the
     * port's waiter between duty cycles: a program asleep on a completion event is woken by the very datagram
     * that completes its work. Handing the NIC to the standby thread instead costs two wake-ups per packet (the
     * standby's, then the program's) where a UDP exchange has one. The standby thread sleeps meanwhile.
     *
     * @return done's last answer: false when the time passed, the loop closed or the thread was interrupted
     */
    public boolean runUntil(BooleanSupplier done, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        Thread me = Thread.currentThread();
        waiter = me;
        if (waiting) {
            portWaiter.wake(); // the standby may be blocked in the waiter already: it must let go of it
        }
        try {
            PollWindow window = waiterWindow;
            window.worked();
            while (true) {
                lastInvoked = System.nanoTime();
                int work = runIfFree();
                if (done.getAsBoolean()) {
                    return true;
                }
                long now = System.nanoTime();
                if (work > 0) {
                    window.worked();
                    continue;
                }
                if (now - deadline >= 0 || closed || me.isInterrupted()) {
                    return false;
                }
                if (held.get()) {
                    Thread.yield(); // a control verb holds the loop for a moment
                    continue;
                }
                if (!window.idle(now)) { // the window yields: the next packet may be close
                    waitForWork(deadline);
                }
            }
        } finally {
            waiter = null;
            lastInvoked = System.nanoTime(); // the standby takes over after the handover time if the program goes
        }
    }

    /** Whether a thread (the standby, or a program waiting for an event) blocks in the port's waiter now. */
    boolean blockedInWaiter() {
        return waiting;
    }

    /** True on the thread that runs the duty cycle now. */
    public boolean inLoop() {
        return holder == Thread.currentThread();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void execute(Runnable task) {
        tasks.offer(task);
        if (holder == Thread.currentThread()) {
            return;
        }
        if (doorbellsRunIt) {
            runIfFree(); // a doorbell runs the NIC at once on the poster's thread when nobody else does
        } else if (waiting) {
            // The standby wrote `waiting` before it looked at the tasks, this thread the task before it read
            // `waiting`: either the standby sees the task or this wakes it (a wake before its wait ends that wait).
            portWaiter.wake();
        }
    }

    @Override
    public long timerGranularityNanos() {
        return REAL_THREAD_TIMER_GRANULARITY_NANOS; // a thread that parks or polls, late as an event loop's
    }

    @Override
    public void schedule(long delayNanos, Runnable task) {
        long deadline = System.nanoTime() + Math.max(0, delayNanos);
        if (holder != Thread.currentThread()) {
            execute(() -> addTimer(deadline, task));
            return;
        }
        addTimer(deadline, task);
    }

    private void addTimer(long deadline, Runnable task) {
        timers.add(deadline, task);
        if (deadline < nextDeadline) {
            nextDeadline = deadline;
            if (waiting && deadline < waiterWakesAt) {
                portWaiter.wake(); // the waiting thread sleeps past this timer
            }
        }
    }

    /**
     * Runs {@code action} holding the loop, waiting for the holder to let go if needed: the
     * control path (create a QP, register memory), never the data path.
     */
    public <T, X extends Exception> T holding(Action<T, X> action) throws X {
        if (holder == Thread.currentThread()) {
            return action.run();
        }
        while (!held.compareAndSet(false, true)) {
            Thread.yield();
        }
        holder = Thread.currentThread();
        try {
            return action.run();
        } finally {
            holder = null;
            held.set(false);
            if (!tasks.isEmpty()) {
                runIfFree();
            }
        }
    }

    /** What {@link #holding} runs. */
    @FunctionalInterface
    public interface Action<T, X extends Exception> {
        T run() throws X;
    }

    private int runIfFree() {
        int work = 0;
        while (!held.get() && held.compareAndSet(false, true)) {
            holder = Thread.currentThread();
            try {
                work += dutyCycle();
            } finally {
                holder = null;
                held.set(false);
            }
            if (tasks.isEmpty() || closed) {
                break; // else a task came while we let go and its poster found the loop held: run it
            }
        }
        if (work > 0) {
            Thread w = waiter;
            if (w != null && w != Thread.currentThread()) {
                portWaiter.wake(); // what this thread did may be what the waiter waits for: it must look
            }
        }
        return work;
    }

    /**
     * Rounds of timers, tasks and datagrams, another only while one may find work: a task that
     * queued another, or a socket read to its limit. A round that drained the socket does not read
     * it again at once: in an exchange the answer is microseconds away, and a program that polls
     * would wait for that empty read (a system call) before it saw the completion just written.
     */
    private int dutyCycle() {
        int work = 0;
        for (int round = 0; round < ROUNDS_PER_CYCLE; round++) {
            int ran = runDueTimers() + runTasks();
            int received = port.receive(DATAGRAMS_PER_ROUND);
            work += ran + received;
            if (tasks.isEmpty() && received < DATAGRAMS_PER_ROUND) {
                break;
            }
        }
        nextDeadline = timers.nextDeadline();
        return work;
    }

    /** Reads the clock even when no timer is set: a busy NIC always has one, so a test for none is a branch C2 drops. */
    private int runDueTimers() {
        long now = System.nanoTime();
        int n = 0;
        Runnable due;
        while ((due = timers.takeDue(now)) != null) {
            run(due);
            n++;
        }
        return n;
    }

    private int runTasks() {
        int n = 0;
        Runnable r;
        while (n < TASKS_PER_ROUND && (r = tasks.poll()) != null) {
            run(r);
            n++;
        }
        return n;
    }

    /** Engines catch their own failures; anything else is a bug that must not stop the NIC. */
    private static void run(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            Thread t = Thread.currentThread();
            t.getUncaughtExceptionHandler().uncaughtException(t, e);
        }
    }

    private void standbyLoop() {
        long lookEvery = HANDOVER_NANOS;
        PollWindow window = standbyWindow;
        while (!closed) {
            long now = System.nanoTime();
            long quietFor = now - lastInvoked;
            if (quietFor < HANDOVER_NANOS || waiter != null) {
                LockSupport.parkNanos(this, Math.max(lookEvery, HANDOVER_NANOS - quietFor)); // leave() ends it early
                lookEvery = Math.min(lookEvery * 2, MAX_LOOK_NANOS);
                continue;
            }
            lookEvery = HANDOVER_NANOS;
            if (runIfFree() > 0) {
                window.worked();
                continue;
            }
            if (held.get()) {
                Thread.yield(); // a control verb holds the loop for a moment
                continue;
            }
            if (!window.idle(now)) { // the window yields: the next packet may be close
                waitForWork(Long.MAX_VALUE);
            }
        }
    }

    /**
     * Blocks until a packet arrives, the next timer is due, {@code until} (a nanoTime) comes, or the port's waiter is
     * woken (an earlier timer, close, another thread's work while a waiter waits).
     */
    private void waitForWork(long until) {
        long timerDue = nextDeadline;
        long wakeAt = Math.min(timerDue, until);
        long timeoutNanos = wakeAt == Long.MAX_VALUE ? 0 : wakeAt - System.nanoTime();
        if (wakeAt != Long.MAX_VALUE && timeoutNanos <= 0) {
            return;
        }
        waiterWakesAt = wakeAt;
        waiting = true;
        try {
            // With `waiting` written first, a waiter that arrives now either is seen here or sees `waiting`
            // and wakes the port's waiter: the standby never keeps it blocked while the waiter waits for its turn.
            Thread w = waiter;
            if (tasks.isEmpty() && !closed && nextDeadline == timerDue && (w == null || w == Thread.currentThread())) {
                portWaiter.await(timeoutNanos);
            }
        } catch (IOException e) {
            LockSupport.parkNanos(HANDOVER_NANOS); // a waiter that fails is retried, not spun on
        } finally {
            waiting = false;
            waiterWakesAt = Long.MAX_VALUE;
        }
    }

    /** Stops the standby thread and closes the port; the NIC does nothing after. */
    @Override
    public void close() {
        closed = true;
        portWaiter.wake();
        LockSupport.unpark(standby);
        if (Thread.currentThread() != standby && standby.isAlive()) {
            try {
                standby.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        holding(() -> {
            port.close();
            return null;
        });
        portWaiter.close();
    }
}
