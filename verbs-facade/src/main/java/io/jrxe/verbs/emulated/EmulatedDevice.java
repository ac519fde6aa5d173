package io.jrxe.verbs.emulated;

import io.jrxe.rnic.Rnic;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Device;

/** A jrxe NIC as a verbs device. */
public final class EmulatedDevice implements Device {
    private final Rnic rnic;

    public EmulatedDevice(Rnic rnic) {
        this.rnic = rnic;
    }

    public Rnic rnic() {
        return rnic;
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
