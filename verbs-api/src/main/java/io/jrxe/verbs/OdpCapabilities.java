package io.jrxe.verbs;

import java.util.ArrayList;
import java.util.List;

/**
 * What a device's on-demand paging covers (ibv_device_attr_ex.odp_caps): whether it has ODP at all, and per transport
 * which operations may use an {@link Access#ON_DEMAND} MR. The bits are libibverbs' (enum ibv_odp_general_caps and
 * enum ibv_odp_transport_cap_bits), so a native device's caps read as they are.
 *
 * @param general      {@link #SUPPORT}, {@link #SUPPORT_IMPLICIT}
 * @param rc           the RC transport's bits ({@link #SEND} ...)
 * @param uc           the UC transport's bits
 * @param ud           the UD transport's bits
 */
public record OdpCapabilities(long general, int rc, int uc, int ud) {
    /** IBV_ODP_SUPPORT: ON_DEMAND registrations are accepted. */
    public static final long SUPPORT = 1;
    /** IBV_ODP_SUPPORT_IMPLICIT: one ON_DEMAND MR may cover the whole address space. */
    public static final long SUPPORT_IMPLICIT = 1 << 1;

    /** IBV_ODP_SUPPORT_SEND: a send's gather from an ON_DEMAND MR. */
    public static final int SEND = 1;
    /** IBV_ODP_SUPPORT_RECV: a receive's scatter into one. */
    public static final int RECV = 1 << 1;
    /** IBV_ODP_SUPPORT_WRITE: an RDMA WRITE into one. */
    public static final int WRITE = 1 << 2;
    /** IBV_ODP_SUPPORT_READ: an RDMA READ of one. */
    public static final int READ = 1 << 3;
    /** IBV_ODP_SUPPORT_ATOMIC: an atomic on one. */
    public static final int ATOMIC = 1 << 4;
    /** IBV_ODP_SUPPORT_SRQ_RECV: an SRQ receive's scatter into one. */
    public static final int SRQ_RECV = 1 << 5;
    /** IBV_ODP_SUPPORT_FLUSH: a FLUSH of one (rdma-core 58 on). */
    public static final int FLUSH = 1 << 6;
    /** IBV_ODP_SUPPORT_ATOMIC_WRITE: an ATOMIC WRITE into one (rdma-core 58 on). */
    public static final int ATOMIC_WRITE = 1 << 7;

    /** A device without on-demand paging (rxe before Linux 6.15, or a jrxe NIC with it switched off). */
    public static final OdpCapabilities NONE = new OdpCapabilities(0, 0, 0, 0);

    /**
     * What rxe reports from Linux 6.16 on (rxe.c's rxe_init_device_param): ODP without implicit ODP; on RC every
     * operation, FLUSH and ATOMIC_WRITE included; on UD sends and receives; nothing on UC.
     */
    public static final OdpCapabilities RXE = new OdpCapabilities(SUPPORT,
            SEND | RECV | WRITE | READ | ATOMIC | SRQ_RECV | FLUSH | ATOMIC_WRITE, 0, SEND | RECV | SRQ_RECV);

    private static final String[] TRANSPORT_NAMES = {"SUPPORT_SEND", "SUPPORT_RECV", "SUPPORT_WRITE", "SUPPORT_READ",
            "SUPPORT_ATOMIC", "SUPPORT_SRQ", "SUPPORT_FLUSH", "SUPPORT_ATOMIC_WRITE"};

    /** Whether ON_DEMAND registrations are accepted. */
    public boolean supported() {
        return (general & SUPPORT) != 0;
    }

    /** The general caps' names, as ibv_devinfo -v prints them (ODP_SUPPORT, ODP_SUPPORT_IMPLICIT). */
    public List<String> generalNames() {
        List<String> names = new ArrayList<>();
        if ((general & SUPPORT) != 0) {
            names.add("ODP_SUPPORT");
        }
        if ((general & SUPPORT_IMPLICIT) != 0) {
            names.add("ODP_SUPPORT_IMPLICIT");
        }
        long unknown = general & ~(SUPPORT | SUPPORT_IMPLICIT);
        if (unknown != 0) {
            names.add(String.format("unknown bits 0x%x", unknown));
        }
        return names;
    }

    /** A transport's bits by name, as ibv_devinfo -v prints them (SUPPORT_SEND, ...); empty for none. */
    public static List<String> transportNames(int bits) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < TRANSPORT_NAMES.length; i++) {
            if ((bits & (1 << i)) != 0) {
                names.add(TRANSPORT_NAMES[i]);
            }
        }
        int unknown = bits & ~((1 << TRANSPORT_NAMES.length) - 1);
        if (unknown != 0) {
            names.add(String.format("unknown bits 0x%x", unknown));
        }
        return names;
    }
}
