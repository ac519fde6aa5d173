package io.jrxe.wire.cm;

/**
 * Service IDs of RDMA CM: the port space above the port, in the low 32 bits of the 64-bit
 * service ID. In the RDMA IP CM service's range (IBTA annex A11) the top 40 bits are the prefix
 * 0x0000000001, so rping's default port 7174 over TCP is 0x0000000001061c06.
 */
public final class IpCmServiceId {
    /** The annex A11 prefix in place: the top 40 bits of the service ID. */
    public static final long PREFIX = 0x0000_0000_0100_0000L;
    public static final long PREFIX_MASK = 0xFFFF_FFFF_FF00_0000L;

    private IpCmServiceId() {
    }

    /** The service ID RDMA CM listens on and connects to for this port space and port. */
    public static long of(PortSpace space, int port) {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port " + port + " is out of range 0..65535");
        }
        return (long) space.code() << 16 | port;
    }

    /** True when the service ID is in the RDMA IP CM service's range (its REQ carries the IP CM header). */
    public static boolean isIpCm(long serviceId) {
        return (serviceId & PREFIX_MASK) == PREFIX;
    }

    /** The port space, or null when the service ID is none of RDMA CM's. */
    public static PortSpace portSpace(long serviceId) {
        return serviceId >>> 32 == 0 ? PortSpace.of((int) (serviceId >>> 16)) : null;
    }

    /** The port: the service ID's low 16 bits. */
    public static int port(long serviceId) {
        return (int) serviceId & 0xFFFF;
    }

    /** "TCP:7174" for an RDMA CM service ID, else the ID in hex. */
    public static String describe(long serviceId) {
        PortSpace space = portSpace(serviceId);
        return space != null ? space + ":" + port(serviceId) : String.format("0x%016x", serviceId);
    }
}
