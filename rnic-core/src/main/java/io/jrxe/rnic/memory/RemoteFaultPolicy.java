package io.jrxe.rnic.memory;

/**
 * What a device's responder does when a peer's request (an RDMA WRITE, READ, atomic or ATOMIC WRITE through an
 * R_Key) reaches a page of an on-demand MR that is not in the MTT.
 */
public enum RemoteFaultPolicy {
    /** Kernel rxe's way: the request waits on the NIC while the page is brought in, then runs. */
    RESOLVE_IN_LINE,
    /**
     * Hardware RNICs' way: the request is answered with an RNR NAK while the page is brought in; the requester sends
     * it again after its RNR timer and then finds the page there. RC only (UC has no NAK: it resolves in line).
     */
    RNR_NAK
}
