package io.jrxe.verbs.emulated;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.Rnic;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.Provider;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** jrxe's own NICs: the devices this JVM created, by name. */
public final class EmulatedProvider implements Provider {
    public static final String NAME = "emulated";
    private final List<EmulatedDevice> devices = new CopyOnWriteArrayList<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Device> devices() {
        return new ArrayList<>(devices);
    }

    /** Makes a device whose commands run on {@code executor} and lists it. */
    public synchronized EmulatedDevice create(DeviceConfig config, NicExecutor executor) {
        for (EmulatedDevice d : devices) {
            if (d.name().equals(config.name())) {
                throw new IllegalArgumentException("a device named " + config.name() + " exists already");
            }
        }
        EmulatedDevice device = new EmulatedDevice(new Rnic(config, executor));
        devices.add(device);
        return device;
    }

    public void remove(EmulatedDevice device) {
        devices.remove(device);
    }
}
