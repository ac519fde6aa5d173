package io.jrxe.verbs.nativ;

import io.jrxe.verbs.Device;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Provider;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.RdmaCm;

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
    /** A system property that names another librdmacm to load (a path, or a soname). */
    public static final String RDMACM_LIBRARY_PROPERTY = "jrxe.librdmacm";
    static final String NO_DEVICES = "no RDMA devices";
    private static final int ENOSYS = 38;

    private final String library;
    private final String rdmacmLibrary;
    private Ibverbs lib;
    private NativeRdmaCm cm;
    private String whyNone;
    private boolean listed;

    public NativeProvider() {
        this(System.getProperty(LIBRARY_PROPERTY, Ibverbs.DEFAULT_LIBRARY),
                System.getProperty(RDMACM_LIBRARY_PROPERTY, Rdmacm.DEFAULT_LIBRARY));
    }

    /** A provider over the libibverbs at {@code library} (tests name one that does not exist). */
    public NativeProvider(String library) {
        this(library, Rdmacm.DEFAULT_LIBRARY);
    }

    /** A provider over the libibverbs at {@code library} and the librdmacm at {@code rdmacmLibrary}. */
    public NativeProvider(String library, String rdmacmLibrary) {
        this.library = library;
        this.rdmacmLibrary = rdmacmLibrary;
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * The kernel's connection manager through librdmacm, loaded on first use (with libibverbs, for the
     * devices librdmacm opens).
     *
     * @throws VerbsException ENOSYS when librdmacm or libibverbs is not installed, naming the Debian package
     */
    @Override
    public synchronized RdmaCm rdmaCm() throws VerbsException {
        if (cm == null) {
            try {
                if (lib == null) {
                    lib = Ibverbs.load(library);
                }
                cm = new NativeRdmaCm(Rdmacm.load(rdmacmLibrary), lib);
            } catch (NativeLibrary.LibraryMissingException e) {
                throw new VerbsException(Errno.ENOSYS, "no native connection manager: " + e.getMessage());
            }
        }
        return cm;
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
            whyNone = io.jrxe.verbs.spi.Platform.linuxOnlyUnavailable() != null ? e.getMessage() : Ibverbs.NOT_INSTALLED;
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
            out.add(NativeDevice.of(lib, devices.getAtIndex(ADDRESS, i)));
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

    /** The librdmacm this provider loads for {@link #rdmaCm()}. */
    public String rdmacmLibrary() {
        return rdmacmLibrary;
    }

    /** The library this provider loads. */
    public String library() {
        return library;
    }
}
