package io.jrxe.verbs.facade;

import io.jrxe.verbs.Device;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedProvider;
import io.jrxe.verbs.nativ.NativeProvider;

import java.util.ArrayList;
import java.util.List;

/**
 * The entry point, like libibverbs' ibv_get_device_list: every device of every provider. The
 * emulated provider lists the jrxe NICs this JVM made; the native one the kernel's RDMA devices
 * (rxe0, ...) through libibverbs, or none, with {@link NativeProvider#whyNoDevices()} saying why.
 * A name picks its device whichever provider has it: {@code rxe0} the kernel's, {@code jrxe0} jrxe's.
 */
public final class Verbs {
    private static final EmulatedProvider EMULATED = new EmulatedProvider();
    private static final NativeProvider NATIVE = new NativeProvider();

    private Verbs() {
    }

    /**
     * jrxe's own NICs: {@code createUdp(name, address)} makes one on a UDP socket of this machine, and it is
     * listed from then on until it is closed.
     */
    public static EmulatedProvider emulated() {
        return EMULATED;
    }

    /** The kernel's RDMA devices (rxe0, a real RNIC) through libibverbs, and librdmacm's connection manager. */
    public static NativeProvider nativeProvider() {
        return NATIVE;
    }

    /** The emulated devices, then the native ones (listing the native ones never throws). */
    public static List<Device> deviceList() throws VerbsException {
        List<Device> all = new ArrayList<>(EMULATED.devices());
        all.addAll(NATIVE.devices());
        return all;
    }

    /** The device with this name, or an error listing the names there are (and why there is no native one). */
    public static Device device(String name) throws VerbsException {
        return find(deviceList(), name);
    }

    /** The device with this name from one provider ("emulated" or "native"). */
    public static Device device(String provider, String name) throws VerbsException {
        return switch (provider) {
            case EmulatedProvider.NAME -> find(EMULATED.devices(), name);
            case NativeProvider.NAME -> find(NATIVE.devices(), name);
            default -> throw new VerbsException(io.jrxe.verbs.Errno.EINVAL, "no provider named " + provider
                    + "; there are " + EmulatedProvider.NAME + " and " + NativeProvider.NAME);
        };
    }

    private static Device find(List<Device> devices, String name) throws VerbsException {
        for (Device d : devices) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        List<String> names = new ArrayList<>();
        for (Device d : devices) {
            names.add(d.name());
        }
        String nativeNone = NATIVE.whyNoDevices().map(why -> " (native: " + why + ")").orElse("");
        throw new VerbsException(io.jrxe.verbs.Errno.ENODEV, "no RDMA device named " + name
                + (names.isEmpty() ? ": there are none" : "; there are " + String.join(", ", names)) + nativeNone);
    }
}
