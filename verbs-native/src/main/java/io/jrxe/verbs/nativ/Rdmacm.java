package io.jrxe.verbs.nativ;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * librdmacm, loaded: the connection manager's calls by name. Every int-returning one returns 0,
 * or -1 with errno set; the creating ones NULL with errno set.
 */
final class Rdmacm extends NativeLibrary {
    static final String DEFAULT_LIBRARY = "librdmacm.so.1";
    static final String NOT_INSTALLED = "librdmacm not installed (Debian: librdmacm1)";

    /** The C signatures of the functions jrxe calls (rdma_cma.h, rdma-core 44); enums are ints, uint8_t JAVA_BYTE. */
    static final Map<String, FunctionDescriptor> SIGNATURES = Map.ofEntries(
            Map.entry("rdma_create_event_channel", FunctionDescriptor.of(ADDRESS)),
            Map.entry("rdma_destroy_event_channel", FunctionDescriptor.ofVoid(ADDRESS)),
            Map.entry("rdma_create_id", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT)),
            Map.entry("rdma_destroy_id", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("rdma_bind_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("rdma_resolve_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT)),
            Map.entry("rdma_resolve_route", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
            Map.entry("rdma_listen", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
            Map.entry("rdma_connect", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("rdma_accept", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("rdma_reject", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_BYTE)),
            Map.entry("rdma_disconnect", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("rdma_create_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
            Map.entry("rdma_destroy_qp", FunctionDescriptor.ofVoid(ADDRESS)),
            Map.entry("rdma_get_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("rdma_ack_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("rdma_event_str", FunctionDescriptor.of(ADDRESS, JAVA_INT)));

    private Rdmacm(String library, SymbolLookup lookup) {
        super(library, lookup, SIGNATURES);
    }

    /** Loads the library (a name the dynamic linker resolves, or a path); it stays loaded for the JVM's life. */
    static Rdmacm load(String library) throws LibraryMissingException {
        return new Rdmacm(library, open(library, NOT_INSTALLED));
    }

    /**
     * Calls a function that returns 0 or -1 with errno; a failure names the call with {@code arguments}
     * as a program would read them: "rdma_bind_addr(10.77.0.2:7174): Address already in use (errno 98)".
     */
    void checked(String function, String arguments, Object... args) throws NativeVerbsException {
        try {
            check(function, args);
        } catch (NativeVerbsException e) {
            throw NativeVerbsException.of(function + "(" + arguments + ")", e.nativeErrno());
        }
    }

    /** rdma_event_str: librdmacm's name of an event type ("RDMA_CM_EVENT_ESTABLISHED", "UNKNOWN EVENT"). */
    String eventName(int type) {
        MemorySegment s = (MemorySegment) call("rdma_event_str", type).value();
        return s.reinterpret(64).getString(0);
    }
}
