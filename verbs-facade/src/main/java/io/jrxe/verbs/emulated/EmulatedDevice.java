package io.jrxe.verbs.emulated;

import io.jrxe.rnic.Rnic;
import io.jrxe.rnic.cm.ConnectionManager;
import io.jrxe.rnic.engine.DataPath;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Device;

import java.util.concurrent.atomic.AtomicBoolean;

/** A jrxe NIC as a verbs device; closing it unlists it and releases its port and NIC thread. */
public final class EmulatedDevice implements Device, AutoCloseable {
    private final Rnic rnic;
    private final DataPath dataPath;
    private final ConnectionManager cm;
    private final Runnable shutdown;
    private final AtomicBoolean shutDown = new AtomicBoolean();
    private volatile EmulatedProvider provider;

    /** A device with a data path (dataPath may be null for a control-path-only device). */
    public EmulatedDevice(Rnic rnic, DataPath dataPath, Runnable shutdown) {
        this.rnic = rnic;
        this.dataPath = dataPath;
        // Every port with a network has its GSI QP (in the data path) and the CM agent behind it.
        this.cm = dataPath != null ? new ConnectionManager(rnic, dataPath) : null;
        this.shutdown = shutdown;
    }

    /** Releases the port and the NIC thread (from a thread other than the NIC thread). */
    void shutdown() {
        if (shutDown.compareAndSet(false, true)) {
            shutdown.run();
        }
    }

    void listedBy(EmulatedProvider p) {
        provider = p;
    }

    /** Unlists the device from its provider and releases its port and NIC thread (not from the NIC thread). */
    @Override
    public void close() {
        EmulatedProvider p = provider;
        if (p != null) {
            p.remove(this);
        }
        shutdown();
    }

    public Rnic rnic() {
        return rnic;
    }

    /** The device's engines, or null when it was made without a network port. */
    public DataPath dataPath() {
        return dataPath;
    }

    /**
     * The device's communication manager, or null without a network port. Its methods run on the
     * NIC thread (on the simulated network, the caller's).
     */
    public ConnectionManager cm() {
        return cm;
    }

    @Override
    public String name() {
        return rnic.name();
    }

    @Override
    public long guid() {
        return rnic.nodeGuid();
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
