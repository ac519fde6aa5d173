package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/**
 * The socket addresses librdmacm takes and keeps (netinet/in.h, sys/socket.h): sockaddr_in,
 * sockaddr_in6, and sockaddr_storage, the room rdma_cm_id keeps either in. Port, address and
 * flow information are in network byte order.
 */
public final class SockAddr {
    /** AF_INET. */
    public static final short AF_INET = 2;
    /** AF_INET6. */
    public static final short AF_INET6 = 10;

    public static final MemoryLayout IN = struct("sockaddr_in",
            U16.withName("sin_family"),
            U16.withName("sin_port"),
            struct("in_addr", U32.withName("s_addr")).withName("sin_addr"),
            array(8, U8, "sin_zero"));
    public static final MemoryLayout IN6 = struct("sockaddr_in6",
            U16.withName("sin6_family"),
            U16.withName("sin6_port"),
            U32.withName("sin6_flowinfo"),
            array(16, U8, "sin6_addr").withByteAlignment(4),
            U32.withName("sin6_scope_id"));
    public static final MemoryLayout STORAGE = struct("sockaddr_storage",
            U16.withName("ss_family"),
            array(118, U8, "__ss_padding"),
            U64.withName("__ss_align"));

    public static final long STORAGE_SIZE = STORAGE.byteSize();
    /** sin_family and sin6_family: both first. */
    public static final long FAMILY = offset(IN, "sin_family");
    /** sin_port and sin6_port: both second. */
    public static final long PORT = offset(IN, "sin_port");
    public static final long IN_SIZE = IN.byteSize();
    public static final long IN_ADDR = offset(IN, "sin_addr.s_addr");
    public static final long IN6_SIZE = IN6.byteSize();
    public static final long IN6_FLOWINFO = offset(IN6, "sin6_flowinfo");
    public static final long IN6_ADDR = offset(IN6, "sin6_addr");
    public static final long IN6_SCOPE_ID = offset(IN6, "sin6_scope_id");

    private SockAddr() {
    }
}
