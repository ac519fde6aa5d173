package io.jrxe.verbs.emulated;

import io.jrxe.rnic.Rnic;
import io.jrxe.rnic.engine.DataPath;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Device;

/** A jrxe NIC as a verbs device. */
public final class EmulatedDevice implements Device {
    private final Rnic rnic;
    private final DataPath dataPath;

    /** A device with a data path (dataPath may be null for a control-path-only device). */
    public EmulatedDevice(Rnic rnic, DataPath dataPath) {
        this.rnic = rnic;
        this.dataPath = dataPath;
    }

    public Rnic rnic() {
        return rnic;
    }

    /** The device's engines, or null when it was made without a network port. */
    public DataPath dataPath() {
        return dataPath;
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
