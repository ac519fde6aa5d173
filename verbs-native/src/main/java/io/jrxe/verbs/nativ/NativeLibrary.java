package io.jrxe.verbs.nativ;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loaded C library of rdma-core (libibverbs, librdmacm): its exported functions called by name,
 * each with errno captured right after the call (Linker.Option.captureCallState), so that a NULL
 * or a non-zero return becomes an exception that names the function and the error. Functions are
 * bound when first called, so a library that lacks one (an old rdma-core) fails only the call
 * that needs it.
 */
class NativeLibrary {
    private static final Linker LINKER = Linker.nativeLinker();
    private final String library;
    private final SymbolLookup lookup;
    private final Map<String, FunctionDescriptor> signatures;
    private final Map<String, MethodHandle> bound = new ConcurrentHashMap<>();
    private final Map<FunctionDescriptor, MethodHandle> pointerCalls = new ConcurrentHashMap<>();

    NativeLibrary(String library, SymbolLookup lookup, Map<String, FunctionDescriptor> signatures) {
        this.library = library;
        this.lookup = lookup;
        this.signatures = signatures;
    }

    /**
     * Opens a library (a name the dynamic linker resolves, or a path); it stays loaded for the JVM's life.
     *
     * @param notInstalled what to say when it cannot be loaded: which package to install
     */
    static SymbolLookup open(String library, String notInstalled) throws LibraryMissingException {
        // rdma-core's libraries, and the struct layouts jrxe reads from them, are Linux's.
        String notHere = io.jrxe.verbs.spi.Platform.linuxOnlyUnavailable();
        if (notHere != null) {
            throw new LibraryMissingException("kernel RDMA devices are not used: " + notHere);
        }
        try {
            return SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new LibraryMissingException(notInstalled + ": cannot load " + library);
        }
    }

    /** The library could not be loaded. */
    static final class LibraryMissingException extends Exception {
        LibraryMissingException(String message) {
            super(message);
        }
    }

    String library() {
        return library;
    }

    /** Calls a function that returns a pointer, NULL with errno on failure (ibv_open_device, ibv_create_qp, ...). */
    MemorySegment create(String function, Object... args) throws NativeVerbsException {
        Outcome o = invoke(handle(function), null, args);
        MemorySegment p = (MemorySegment) o.value();
        if (p.equals(MemorySegment.NULL)) {
            throw NativeVerbsException.of(function, o.errno() != 0 ? o.errno() : 22);
        }
        return p;
    }

    /**
     * Calls a function that returns 0 or an error: most verbs return the errno value itself, a few
     * (ibv_get_cq_event, and every librdmacm call) -1 with errno set, older ones a negative errno.
     */
    void check(String function, Object... args) throws NativeVerbsException {
        Outcome o = invoke(handle(function), null, args);
        int rc = (int) o.value();
        if (rc != 0) {
            throw NativeVerbsException.of(function, rc > 0 ? rc : o.errno() != 0 ? o.errno() : -rc);
        }
    }

    /** Calls a function whose result needs no check (void ones, ibv_get_device_guid), or that the caller checks. */
    Outcome call(String function, Object... args) {
        return invoke(handle(function), null, args);
    }

    /** What a call returned and errno right after it. */
    record Outcome(Object value, int errno) {
    }

    /**
     * Calls a function pointer (the verbs verbs.h defines inline go through the context's ops
     * table: alloc_mw, bind_mw, dealloc_mw). Control path: one descriptor-shaped handle per signature.
     */
    Outcome callPointer(MemorySegment function, FunctionDescriptor descriptor, Object... args) {
        MethodHandle h = pointerCalls.computeIfAbsent(descriptor,
                d -> LINKER.downcallHandle(d, Linker.Option.captureCallState("errno")));
        return invoke(h, function, args);
    }

    /** Binds every function jrxe calls by name, so that a missing one shows before any call needs it. */
    void bindAll() {
        for (String f : signatures.keySet()) {
            handle(f);
        }
    }

    private MethodHandle handle(String function) {
        return bound.computeIfAbsent(function, f -> {
            FunctionDescriptor d = signatures.get(f);
            if (d == null) {
                throw new IllegalArgumentException("no signature for " + f);
            }
            MemorySegment symbol = lookup.find(f).orElseThrow(() -> new UnsupportedOperationException(
                    library + " has no function " + f + " (an rdma-core older than jrxe needs)"));
            return LINKER.downcallHandle(symbol, d, Linker.Option.captureCallState("errno"));
        });
    }

    /** The linker's order: the target (for a function pointer), then the errno capture, then the arguments. */
    private static Outcome invoke(MethodHandle h, MemorySegment target, Object[] args) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CapturedErrno.STATE);
            int lead = target == null ? 1 : 2;
            Object[] all = new Object[args.length + lead];
            if (target != null) {
                all[0] = target;
            }
            all[lead - 1] = state;
            System.arraycopy(args, 0, all, lead, args.length);
            Object value = h.invokeWithArguments(all);
            return new Outcome(value, CapturedErrno.read(state));
        } catch (Throwable t) {
            throw CapturedErrno.unexpected(t);
        }
    }
}
