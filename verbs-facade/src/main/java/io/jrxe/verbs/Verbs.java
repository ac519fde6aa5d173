package io.jrxe.verbs;

import io.jrxe.verbs.emulated.EmulatedProvider;

import java.util.ArrayList;
import java.util.List;

/**
 * The entry point, like libibverbs' ibv_get_device_list: every device of every provider. The
 * emulated provider lists the jrxe NICs this JVM made.
 */
public final class Verbs {
    private static final EmulatedProvider EMULATED = new EmulatedProvider();

    private Verbs() {
    }

    public static EmulatedProvider emulated() {
        return EMULATED;
    }

    public static List<Device> deviceList() throws VerbsException {
        return new ArrayList<>(EMULATED.devices());
    }

    /** The device with this name, or an error listing the names there are. */
    public static Device device(String name) throws VerbsException {
        List<Device> devices = deviceList();
        for (Device d : devices) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        List<String> names = new ArrayList<>();
        for (Device d : devices) {
            names.add(d.name());
        }
        throw new VerbsException(io.jrxe.rnic.RnicException.Errno.ENODEV, "no RDMA device named " + name
                + (names.isEmpty() ? ": there are none" : "; there are " + String.join(", ", names)));
    }
}
