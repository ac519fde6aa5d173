package io.jrxe.rnic.engine;

/**
 * Receives the engines' trace events as primitive arguments, so that emitting one allocates
 * nothing; with no listener installed the engines skip the call entirely.
 */
@FunctionalInterface
public interface TraceListener {
    /**
     * One event of the engines.
     *
     * @param qpn    the local QP
     * @param wrId   the work request, where one is involved (else 0)
     * @param psn    the packet's PSN, where a packet is involved (else -1)
     * @param opcode the packet's BTH opcode, or the work request's opcode ordinal (else -1)
     * @param value  event-specific: bytes, syndrome, completion status ordinal
     */
    void event(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value);

    /**
     * One page of a transfer went through the memory tables: the key was checked and reached MPT entry
     * {@code mptIndex}, the iova's page is MTT entry {@code mttIndex}, which holds {@code pageAddress}, and
     * {@code length} bytes at {@code pageOffset} in that page were read by DMA (into a packet) or written (from
     * one). Emitted on the NIC thread while a packet is built or placed: before the requester's PACKET_SENT of the
     * packet it fills, after the PACKET_RECEIVED of the packet a responder or completer places. The default ignores
     * it, so that a listener of the events above needs nothing more.
     *
     * @param key      the L_Key or R_Key the transfer used
     * @param toMemory true when bytes were written into the memory, false when read from it
     */
    default void translation(int key, int mptIndex, long iova, long mttIndex, long pageAddress, int pageOffset, int length,
                             boolean toMemory) {
    }

    /**
     * A page of an ON_DEMAND MR was not in the MTT when a transfer reached it: MTT entry {@code mttIndex} was empty and
     * the page was faulted in ({@code arriving} false, one of jrxe_odp_page_faults), or was on its way in, asked for
     * by an RNR-NAKed request or a prefetch, and was taken now ({@code arriving} true, not counted again). Emitted
     * just before that page's {@link #translation}. The default ignores it.
     *
     * @param key the L_Key or R_Key the transfer used
     */
    default void pageFault(int key, int mptIndex, long iova, long mttIndex, boolean arriving) {
    }
}
