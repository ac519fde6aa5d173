package io.jrxe.verbs.cm;

import io.jrxe.verbs.AddressVector;

/**
 * What a UDP port space exchange tells (librdmacm's rdma_ud_param): on the active side's
 * ESTABLISHED, where the service's UD QP is; on the passive side's CONNECT_REQUEST, where the
 * requester is.
 *
 * @param privateData the peer's private data
 * @param address     an address vector to the peer, for an address handle
 * @param qpNumber    the peer's UD QP
 * @param qkey        the Q_Key to send to it with
 */
public record DatagramParameters(byte[] privateData, AddressVector address, int qpNumber, int qkey) {
    /** librdmacm's Q_Key for the UDP port space (RDMA_UDP_QKEY). */
    public static final int UDP_QKEY = 0x01234567;

    /** Copies the private data. */
    public DatagramParameters {
        privateData = privateData == null ? new byte[0] : privateData.clone();
    }

    /** A copy of the private data. */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DatagramParameters d && java.util.Arrays.equals(d.privateData, privateData)
                && java.util.Objects.equals(d.address, address) && d.qpNumber == qpNumber && d.qkey == qkey;
    }

    @Override
    public int hashCode() {
        return qpNumber * 31 + qkey;
    }

    @Override
    public String toString() {
        return "DatagramParameters[privateData=" + privateData.length + " bytes, qpNumber=" + qpNumber
                + ", qkey=0x" + Integer.toHexString(qkey) + "]";
    }
}
