package io.jrxe.verbs.emulated;

import io.jrxe.rnic.Nic;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.cm.ConnectionManager;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.VerbsException;
import io.jrxe.wire.port.InvokerLoop;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/** A jrxe NIC as a verbs device; closing it unlists it and releases its port and NIC thread. */
public final class EmulatedDevice implements Device, AutoCloseable {
    private final Nic nic;
    /** The loop the program's thread runs, or null when the device has a NIC thread (or no network). */
    private final InvokerLoop invoker;
    private final AtomicBoolean shutDown = new AtomicBoolean();
    /** Held across a multicast attach or detach: its table change and its port's join or leave are one step. */
    private final Object multicastLock = new Object();
    private volatile EmulatedProvider provider;
    /** The name its MBeans are published under, or null when it is not published (see {@link #publish}). */
    private volatile String publishedName;

    EmulatedDevice(Nic nic) {
        this.nic = nic;
        this.invoker = nic.transport().invoker();
    }

    Object multicastLock() {
        return multicastLock;
    }

    /** Who runs the engines. */
    public Progress progressMode() {
        return invoker == null ? Progress.NIC_THREAD : Progress.INVOKER;
    }

    /**
     * Runs the NIC's duty cycle on this thread (receives, timers, queued work) when the device is
     * {@link Progress#INVOKER invoked}: what a program that waits by polling memory, not a CQ,
     * calls in its loop. Polling a CQ does it already. With a NIC thread, does nothing.
     *
     * @return the work done; 0 when there was none or another thread runs the NIC right now
     */
    public int progress() {
        return invoker == null ? 0 : invoker.invoke();
    }

    /**
     * The program's thread waits for {@code done}: an invoked NIC runs on it meanwhile (see
     * {@link InvokerLoop#runUntil}), so that the datagram that completes the work wakes it directly.
     *
     * @return false at once when the NIC has a thread of its own (the caller sleeps its own way)
     */
    boolean runUntil(BooleanSupplier done, long timeoutNanos) {
        if (invoker == null) {
            return false;
        }
        invoker.runUntil(done, timeoutNanos);
        return true;
    }

    /** The program's thread is going to sleep: the standby thread runs the NIC from now on. */
    void leave() {
        if (invoker != null) {
            invoker.leave();
        }
    }

    /**
     * Runs every kind of work request through the device, QP to QP on itself, a few times, before it meets a
     * peer: a NIC made in a JVM that has just started runs its data path through the interpreter the first time,
     * and on a busy machine that first operation can take longer than a peer's retransmission timeout, so that its
     * status (RETRY_EXC_ERR where a later one would say REM_ACCESS_ERR) depends on timing. Call it once after
     * making a device that will meet a peer with short timeouts; it takes tens of milliseconds. Its QPs are gone
     * when it returns.
     *
     * @return the rounds in which every completion came (0 when the device could not warm up: it still works,
     *         only its first packets are slower)
     */
    public int warmUp() {
        return Warmup.run(this, open(), Warmup.Options.DEFAULT);
    }

    /** Releases the port and the NIC thread (from a thread other than the NIC thread). */
    void shutdown() {
        if (shutDown.compareAndSet(false, true)) {
            String published = publishedName;
            if (published != null) {
                publishedName = null;
                LiveStatePublisher.unpublishDevice(published);
            }
            nic.close();
        }
    }

    /**
     * Publishes the device and, from now on, its QPs as JMX MBeans ({@link JmxNames}). Only a device with a NIC
     * thread of its own is published: on the simulated network the test's thread is the NIC thread, and a
     * monitoring read from another thread would race it.
     */
    void publish() {
        publishedName = LiveStatePublisher.publishDevice(this);
    }

    /** The name the device's MBeans are published under, or null. */
    String publishedName() {
        return publishedName;
    }

    void listedBy(EmulatedProvider p) {
        provider = p;
    }

    /**
     * Whether the device was closed: then every verb on it and on every object made from it is refused with ENODEV,
     * and their close() does nothing.
     */
    public boolean isClosed() {
        return shutDown.get();
    }

    /** A data verb's check (the control verbs' is the NIC's executor): ENODEV once the device is closed. */
    void requireOpen() throws VerbsException {
        if (shutDown.get()) {
            throw new VerbsException(Errno.ENODEV, "device " + name() + " is closed");
        }
    }

    /**
     * Unlists the device from its provider and releases its port and NIC thread (not from the NIC thread). It takes
     * every object made from it along: after it, every verb on them is refused with ENODEV ("the device is closed")
     * and their close() does nothing. Idempotent.
     */
    @Override
    public void close() {
        EmulatedProvider p = provider;
        if (p != null) {
            p.remove(this);
        }
        shutdown();
    }

    /**
     * The NIC behind the device, for what only an emulated NIC can show or do: its parts, its tables, its counters,
     * its trace, its port's capture tap, its CM engine. A program that uses it is tied to jrxe; the verbs API's
     * own objects, and {@link EmulatedExtension}, are enough for everything else.
     */
    public Nic nic() {
        return nic;
    }

    /** The NIC's tables (PDs, MRs, CQs, QPs, ...), attributes and port. */
    NicResources rnic() {
        return nic.resources();
    }

    /**
     * The device's communication manager, or null without a network port. Its methods run on the
     * NIC thread (on the simulated network, the caller's).
     */
    ConnectionManager cm() {
        return nic.cm();
    }

    @Override
    public String name() {
        return nic.name();
    }

    @Override
    public long guid() {
        return nic.resources().nodeGuid();
    }

    @Override
    public String provider() {
        return EmulatedProvider.NAME;
    }

    @Override
    public Context open() {
        return new EmulatedContext(this);
    }

    @Override
    public String toString() {
        return name();
    }
}
