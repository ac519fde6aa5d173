package io.jrxe.rnic.device;

import io.jrxe.wire.icrc.IcrcCalculator;

/**
 * The device's counters: rxe's hw_counters under their names, then jrxe's own, one for every
 * reason a packet is dropped, so that no drop goes unexplained.
 */
public enum Counter {
    SENT_PKTS("sent_pkts"),
    RCVD_PKTS("rcvd_pkts"),
    DUPLICATE_REQUEST("duplicate_request"),
    OUT_OF_SEQ_REQUEST("out_of_seq_request"),
    RCVD_RNR_ERR("rcvd_rnr_err"),
    SEND_RNR_ERR("send_rnr_err"),
    RCVD_SEQ_ERR("rcvd_seq_err"),
    ACK_DEFERRED("ack_deferred"),
    RETRY_EXCEEDED_ERR("retry_exceeded_err"),
    RETRY_RNR_EXCEEDED_ERR("retry_rnr_exceeded_err"),
    COMPLETER_RETRY_ERR("completer_retry_err"),
    SEND_ERR("send_err"),
    LINK_DOWNED("link_downed"),
    RDMA_SENDS("rdma_sends"),
    RDMA_RECVS("rdma_recvs"),
    /** Bytes of the packets counted in sent_pkts, each from its IP header to its ICRC (rxe 7.2 counts the same). */
    SENT_BYTES("sent_bytes"),
    /** Bytes of the packets counted in rcvd_pkts, each from its IP header to its ICRC (rxe 7.2 counts the same). */
    RCVD_BYTES("rcvd_bytes"),

    DROP_BAD_ICRC("jrxe_drop_bad_icrc"),
    DROP_MALFORMED("jrxe_drop_malformed"),
    DROP_UNKNOWN_OPCODE("jrxe_drop_unknown_opcode"),
    DROP_UNKNOWN_QPN("jrxe_drop_unknown_qpn"),
    DROP_BAD_PKEY("jrxe_drop_bad_pkey"),
    DROP_BAD_QKEY("jrxe_drop_bad_qkey"),
    DROP_WRONG_TRANSPORT("jrxe_drop_wrong_transport"),
    DROP_QP_STATE("jrxe_drop_qp_state"),
    DROP_PSN_OUT_OF_WINDOW("jrxe_drop_psn_out_of_window"),
    DROP_GHOST_ACK("jrxe_drop_ghost_ack"),
    DROP_NO_RESOURCES("jrxe_drop_no_resources"),
    /** RC/UC packets whose source is not the QP's peer (or whose destination is not its own address). */
    DROP_WRONG_ADDRESS("jrxe_drop_wrong_address"),
    /** Datagrams for QP 0xFFFFFF sent to a group no QP of the device is attached to. */
    DROP_NO_MCAST_GROUP("jrxe_drop_no_mcast_group"),
    /** UD packets sent to a multicast group (also counted in sent_pkts). */
    MCAST_SENT_PKTS("jrxe_mcast_sent_pkts"),
    /** Multicast datagrams received for a group the device's QPs are attached to (also counted in rcvd_pkts). */
    MCAST_RCVD_PKTS("jrxe_mcast_rcvd_pkts"),
    /** Copies of multicast datagrams handed to attached QPs: one per QP that accepted one. */
    MCAST_COPIES("jrxe_mcast_copies"),
    CQ_OVERFLOW("jrxe_cq_overflow"),
    /** CNPs received for a QP of the device: its congestion control hears of each (see jrxe_cc_*). */
    RCVD_CNP("jrxe_rcvd_cnp"),
    /** Packets for a QP of the device that arrived with the IP ECN field at Congestion Experienced. */
    RCVD_ECN_CE("jrxe_rcvd_ecn_ce"),
    /** CNPs sent: a QP's packet arrived marked CE, and the QP had sent none within the device's CNP interval. */
    SENT_CNP("jrxe_sent_cnp"),
    /** CE-marked packets that sent no CNP: their QP had sent one within the interval, or has no connected peer (UD). */
    CNP_NOT_SENT("jrxe_cnp_not_sent"),
    /**
     * Responses the responder could not queue behind a READ's (a peer beyond its max_rd_atomic): not sent,
     * the peer's retry asks again.
     */
    RESPONSE_QUEUE_FULL("jrxe_drop_response_queue_full"),
    /** Pages of on-demand MRs the NIC reached while not present and brought in (one per page, however many waited). */
    ODP_PAGE_FAULTS("jrxe_odp_page_faults"),
    /** The NIC's modelled time bringing pages of on-demand MRs in: the device's fault cost per page, faults and prefetches. */
    ODP_FAULT_NANOS("jrxe_odp_fault_nanos"),
    /** Invalidations of ranges of on-demand MRs (the MMU notifier's part): their pages fault again on next access. */
    ODP_INVALIDATIONS("jrxe_odp_invalidations"),
    /** Pages of on-demand MRs a prefetch (ibv_advise_mr) brought in ahead of use. */
    ODP_PREFETCHED_PAGES("jrxe_odp_prefetched_pages"),
    /** RNR NAKs sent for a peer's request that reached pages not present (the device's RNR_NAK fault policy). */
    ODP_RNR_NAKS("jrxe_odp_rnr_naks"),
    /**
     * ACK timers that fired late enough to show the NIC thread could not run at the deadline (a collector's pause):
     * the deadline moved on by the time held up, once, so that ACKs that came meanwhile are read before a retry.
     */
    ACK_TIMER_HELD_UP("jrxe_ack_timer_held_up"),
    /** An engine threw: a jrxe bug, caught so that the NIC thread goes on (see the DEVICE_FATAL event). */
    ENGINE_ERROR("jrxe_engine_errors");

    private final String label;

    Counter(String label) {
        this.label = label;
    }

    /** The counter a drop of this reason counts in. */
    public static Counter of(io.jrxe.wire.port.DropReason reason) {
        return switch (reason) {
            case BAD_ICRC -> DROP_BAD_ICRC;
            case TOO_SHORT, NOT_ROCE, MALFORMED -> DROP_MALFORMED;
            case UNKNOWN_OPCODE -> DROP_UNKNOWN_OPCODE;
            case UNKNOWN_QPN -> DROP_UNKNOWN_QPN;
            case BAD_PKEY -> DROP_BAD_PKEY;
            case BAD_QKEY -> DROP_BAD_QKEY;
            case WRONG_TRANSPORT -> DROP_WRONG_TRANSPORT;
            case QP_STATE -> DROP_QP_STATE;
            case PSN_OUT_OF_WINDOW -> DROP_PSN_OUT_OF_WINDOW;
            case GHOST_ACK -> DROP_GHOST_ACK;
            case NO_RESOURCES -> DROP_NO_RESOURCES;
            case WRONG_ADDRESS -> DROP_WRONG_ADDRESS;
            case NO_MCAST_GROUP -> DROP_NO_MCAST_GROUP;
        };
    }

    /** The bytes a RoCE packet of {@code roceLength} bytes (BTH to ICRC) takes from its IP header on. */
    public static int ipPacketLength(int roceLength, boolean ipv6) {
        return roceLength + IcrcCalculator.UDP_HEADER_LENGTH
                + (ipv6 ? IcrcCalculator.IPV6_HEADER_LENGTH : IcrcCalculator.IPV4_HEADER_LENGTH);
    }

    /** The name as rxe's sysfs (or jrxe) shows it. */
    public String label() {
        return label;
    }
}
