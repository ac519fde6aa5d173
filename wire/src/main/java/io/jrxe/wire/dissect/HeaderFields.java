package io.jrxe.wire.dissect;

/**
 * The decoded values of every header of a captured RoCEv2 frame, as plain records: what the
 * dissector prints and what {@link PacketEncoder} turns back into bytes. (The engines never use
 * these: they read headers in place through the flyweights.)
 */
public final class HeaderFields {
    private HeaderFields() {
    }

    public record Ethernet(long dstMac, long srcMac, int etherType) {
    }

    /**
     * IPv4 or IPv6. For IPv6, {@code tos} is the traffic class, {@code ttl} the hop limit, and
     * identification, flagsFragment and checksum are 0.
     */
    public record Ip(int version, byte[] src, byte[] dst, int tos, int flowLabel, int ttl,
                     int identification, int flagsFragment, int checksum) {
    }

    public record Udp(int srcPort, int dstPort, int length, int checksum) {
    }

    public record Bth(int opcode, boolean solicitedEvent, boolean migReq, int padCount, int transportVersion,
                      int pkey, boolean fecn, boolean becn, int reserved6, int destQpn, boolean ackRequest,
                      int reserved7, int psn) {
    }

    public record Reth(long virtualAddress, int rkey, long dmaLength) {
    }

    public record Aeth(int syndrome, int msn) {
    }

    public record AtomicEth(long virtualAddress, int rkey, long swapAdd, long compare) {
    }

    public record AtomicAckEth(long originalData) {
    }

    public record ImmDt(int immediate) {
    }

    public record Ieth(int rkey) {
    }

    public record Deth(int qkey, int reserved, int srcQpn) {
    }

    public record Feth(int bits) {
    }

    /** The 16 reserved bytes after a CNP's BTH. */
    public record CnpReserved(byte[] bytes) {
    }
}
