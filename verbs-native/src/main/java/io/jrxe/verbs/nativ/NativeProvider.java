package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Device;
import io.jrxe.verbs.Provider;
import io.jrxe.verbs.nativ.abi.IbvDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The kernel's RDMA devices (rxe0 and real RNICs) through libibverbs. Listing never throws: on a
 * machine without libibverbs, or whose kernel has no RDMA, it lists none and {@link #whyNoDevices()}
 * says why.
 */
public final class NativeProvider implements Provider {
    public static final String NAME = "native";
    /** A system property that names another libibverbs (a path, or a soname) to load. */
    public static final String LIBRARY_PROPERTY = "jrxe.libibverbs";
    static final String NO_DEVICES = "no RDMA devices";
    private static final int ENOSYS = 38;

    private final String library;
    private Ibverbs lib;
    private String whyNone;
    private boolean listed;

    public NativeProvider() {
        this(System.getProperty(LIBRARY_PROPERTY, Ibverbs.DEFAULT_LIBRARY));
    }

    /** A provider over the libibverbs at {@code library} (tests name one that does not exist). */
    public NativeProvider(String library) {
        this.library = library;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** librdmacm through java.lang.foreign: not bound yet. */
    @Override
    public io.jrxe.verbs.cm.RdmaCm rdmaCm() throws io.jrxe.verbs.VerbsException {
        throw new io.jrxe.verbs.VerbsException(io.jrxe.verbs.Errno.ENOSYS, "the native provider has no connection manager yet");
    }

    /**
     * ibv_get_device_list. Each call asks libibverbs again (a device may have been added since).
     * The lists are not freed: a device keeps pointing into its list for as long as it lives, and
     * libibverbs keeps the devices themselves counted.
     */
    @Override
    public synchronized List<Device> devices() {
        listed = true;
        try {
            if (lib == null) {
                lib = Ibverbs.load(library);
            }
        } catch (Ibverbs.LibraryMissingException e) {
            whyNone = Ibverbs.NOT_INSTALLED;
            return List.of();
        }
        try {
            return list();
        } catch (RuntimeException | NativeVerbsException e) {
            whyNone = NO_DEVICES + ": " + e.getMessage();
            return List.of();
        }
    }

    private List<Device> list() throws NativeVerbsException {
        Ibverbs.Outcome o;
        int n;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            o = lib.call("ibv_get_device_list", count);
            n = count.get(JAVA_INT, 0);
        }
        MemorySegment array = (MemorySegment) o.value();
        if (array.equals(MemorySegment.NULL)) {
            whyNone = o.errno() == ENOSYS ? NO_DEVICES + ": the kernel has no RDMA support (ibv_get_device_list: "
                    + Libc.strerror(ENOSYS) + ")"
                    : NO_DEVICES + ": ibv_get_device_list: " + Libc.strerror(o.errno()) + " (errno " + o.errno() + ")";
            return List.of();
        }
        if (n == 0) {
            lib.call("ibv_free_device_list", array);
            whyNone = NO_DEVICES + " (libibverbs found none: is a device there, e.g. `rdma link add rxe0 type rxe netdev eth0`,"
                    + " and is its provider installed, Debian package ibverbs-providers?)";
            return List.of();
        }
        MemorySegment devices = array.reinterpret(ADDRESS.byteSize() * n);
        List<Device> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            MemorySegment dev = devices.getAtIndex(ADDRESS, i).reinterpret(IbvDevice.SIZE);
            String name = dev.asSlice(IbvDevice.NAME, 64).getString(0);
            String sysfs = dev.asSlice(IbvDevice.IBDEV_PATH, 256).getString(0);
            long guid = io.jrxe.verbs.nativ.codec.NativeOrder.fromBe64((long) lib.call("ibv_get_device_guid", dev).value());
            out.add(new NativeDevice(lib, dev, name, guid, sysfs));
        }
        whyNone = null;
        return List.copyOf(out);
    }

    /** Why the last listing found no device (listing first when none was made); empty when it found some. */
    public synchronized Optional<String> whyNoDevices() {
        if (!listed) {
            devices();
        }
        return Optional.ofNullable(whyNone);
    }

    /** The library this provider loads. */
    public String library() {
        return library;
    }
}
