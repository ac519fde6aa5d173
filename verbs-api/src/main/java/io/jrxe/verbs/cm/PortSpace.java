package io.jrxe.verbs.cm;

/**
 * The port space of a communication identifier (librdmacm's rdma_port_space): which transport it
 * connects and which IP ports it takes. The number goes into the service ID of every CM message
 * (IBTA's RDMA IP CM service annex): 0x0000000001, this port space's protocol byte, then the port.
 */
public enum PortSpace {
    /** Reliable connected QPs (RC), reached by REQ/REP/RTU: librdmacm's RDMA_PS_TCP. */
    TCP(0x0106),
    /** Unreliable datagram QPs (UD), reached by SIDR_REQ/SIDR_REP: librdmacm's RDMA_PS_UDP. */
    UDP(0x0111);

    private final int value;

    PortSpace(int value) {
        this.value = value;
    }

    /** librdmacm's number for it (RDMA_PS_TCP is 0x0106). */
    public int value() {
        return value;
    }

    /** The protocol byte of the service ID: 0x06 for TCP, 0x11 for UDP. */
    public int protocol() {
        return value & 0xFF;
    }

    /** The RDMA IP CM service ID of {@code port} in this space, as REQ and SIDR_REQ carry it. */
    public long serviceId(int port) {
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port " + port + " is out of range 0..65535");
        }
        // Eight bytes, most significant first: 00 00 00 00 01 (the prefix), the protocol byte, the two of the port.
        return 1L << 24 | (long) protocol() << 16 | port;
    }
}
