package io.jrxe.verbs;

import java.util.ArrayList;
import java.util.List;

/**
 * Memory access rights, as bits of one int (the values are libibverbs' enum ibv_access_flags,
 * so a mask means the same in jrxe and in C).
 */
public final class Access {
    /** The device may write the memory: receives, READ responses, atomic results. */
    public static final int LOCAL_WRITE = 1;
    /** Peers may RDMA WRITE into the memory (needs LOCAL_WRITE). */
    public static final int REMOTE_WRITE = 1 << 1;
    /** Peers may RDMA READ the memory. */
    public static final int REMOTE_READ = 1 << 2;
    /** Peers may run atomic operations on the memory (needs LOCAL_WRITE). */
    public static final int REMOTE_ATOMIC = 1 << 3;
    /** Memory windows may be bound to the region. */
    public static final int MW_BIND = 1 << 4;
    /** The region's iova starts at 0 rather than at the memory's address. */
    public static final int ZERO_BASED = 1 << 5;
    /**
     * On-demand paging (ODP): nothing is pinned at registration; the device brings each page in the first time it
     * reaches it, and pages can be invalidated and prefetched ({@link Mr#invalidate}, {@link Mr#advisePrefetch}).
     * A device configured without ODP refuses it (EOPNOTSUPP). An implicit MR, one over the whole address space,
     * needs it too ({@link Pd#regMrImplicit}).
     */
    public static final int ON_DEMAND = 1 << 6;
    /** Peers may FLUSH the memory to global visibility. */
    public static final int FLUSH_GLOBAL = 1 << 8;
    /** Peers may FLUSH the memory to persistence. */
    public static final int FLUSH_PERSISTENT = 1 << 9;

    /** Every bit jrxe accepts on a registration. */
    public static final int SUPPORTED = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC | MW_BIND | ZERO_BASED
            | ON_DEMAND | FLUSH_GLOBAL | FLUSH_PERSISTENT;
    /** Every bit that grants a peer some access: a region with one of them has an R_Key. */
    public static final int REMOTE = REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC | FLUSH_GLOBAL | FLUSH_PERSISTENT;

    private static final String[] NAMES = {
        "LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC", "MW_BIND", "ZERO_BASED", "ON_DEMAND", null,
        "FLUSH_GLOBAL", "FLUSH_PERSISTENT",
    };

    private Access() {
    }

    /** True when {@code access} has every bit of {@code rights}. */
    public static boolean has(int access, int rights) {
        return (access & rights) == rights;
    }

    /** "LOCAL_WRITE|REMOTE_READ", or "none". */
    public static String names(int access) {
        List<String> names = new ArrayList<>();
        for (int bit = 0; bit < 32; bit++) {
            if ((access & (1 << bit)) != 0) {
                names.add(bit < NAMES.length && NAMES[bit] != null ? NAMES[bit] : "0x" + Integer.toHexString(1 << bit));
            }
        }
        return names.isEmpty() ? "none" : String.join("|", names);
    }

    /**
     * The IBTA rule (o10-39 / C10-41): remote write or remote atomic access needs local write.
     *
     * @return null when the combination is allowed, else why not
     */
    public static String checkRegistration(int access) {
        int unknown = access & ~SUPPORTED;
        if (unknown != 0) {
            return "unsupported access bits " + names(unknown);
        }
        if ((access & (REMOTE_WRITE | REMOTE_ATOMIC)) != 0 && (access & LOCAL_WRITE) == 0) {
            return "REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE (IBTA C10-41); asked for " + names(access);
        }
        return null;
    }
}
