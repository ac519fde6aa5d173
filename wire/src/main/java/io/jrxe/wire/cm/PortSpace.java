package io.jrxe.wire.cm;

/**
 * The RDMA CM port spaces (librdmacm's rdma_port_space): the two bytes of a service ID above the
 * port. TCP, UDP and IB lie in the RDMA IP CM service's range (IBTA annex A11: prefix
 * 0x0000000001, then a protocol byte); IPoIB's predates it.
 */
public enum PortSpace {
    IPOIB(0x0002),
    TCP(0x0106),
    UDP(0x0111),
    IB(0x013F);

    private final int code;

    PortSpace(int code) {
        this.code = code;
    }

    /** The 16 bits that go above the port in the service ID, e.g. 0x0106 for TCP. */
    public int code() {
        return code;
    }

    /** The IP protocol byte of the annex A11 service ID (6 for TCP, 0x11 for UDP). */
    public int protocol() {
        return code & 0xFF;
    }

    public static PortSpace of(int code) {
        for (PortSpace p : values()) {
            if (p.code == code) {
                return p;
            }
        }
        return null;
    }
}
