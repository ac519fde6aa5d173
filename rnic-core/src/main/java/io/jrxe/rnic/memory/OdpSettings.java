package io.jrxe.rnic.memory;

/**
 * A device's on-demand paging (ODP) settings: whether it accepts MRs registered with Access.ON_DEMAND, what its
 * responder does on a peer's fault ({@link RemoteFaultPolicy}), what bringing one page in costs the NIC, in
 * nanoseconds of its clock, and whether it accepts implicit MRs (one ON_DEMAND MR over the whole address space:
 * {@link MappedSegments}). The cost is counted (jrxe_odp_fault_nanos) for every page brought in; under
 * {@link RemoteFaultPolicy#RNR_NAK} and for an asynchronous prefetch it is also the time after which the page
 * arrives. The NIC thread never sleeps for it.
 *
 * @param enabled      whether ON_DEMAND registrations are accepted (EOPNOTSUPP when not)
 * @param remoteFaults what a peer's request does when it reaches a page not brought in
 * @param faultCostNanos what bringing one page in costs, 0 or more
 * @param implicit     whether implicit ON_DEMAND MRs are accepted and the caps say ODP_SUPPORT_IMPLICIT; off unless
 *                     asked for, because kernel rxe has no implicit ODP and a jrxe device reports what rxe does
 */
public record OdpSettings(boolean enabled, RemoteFaultPolicy remoteFaults, long faultCostNanos, boolean implicit) {
    /** A few microseconds, the order of a minor page fault served for a NIC by a kernel. */
    public static final long DEFAULT_FAULT_COST_NANOS = 5_000;
    /** As kernel rxe since Linux 6.15: ODP on, faults resolved in line, no implicit ODP. */
    public static final OdpSettings RXE = new OdpSettings(true, RemoteFaultPolicy.RESOLVE_IN_LINE,
            DEFAULT_FAULT_COST_NANOS);
    /** A device that refuses ON_DEMAND registrations (rxe built without CONFIG_INFINIBAND_ON_DEMAND_PAGING). */
    public static final OdpSettings DISABLED = new OdpSettings(false, RemoteFaultPolicy.RESOLVE_IN_LINE, 0);

    public OdpSettings {
        if (remoteFaults == null) {
            throw new IllegalArgumentException("ODP settings need a remote fault policy");
        }
        if (faultCostNanos < 0) {
            throw new IllegalArgumentException("an ODP fault cost of " + faultCostNanos + " ns");
        }
        if (implicit && !enabled) {
            throw new IllegalArgumentException("implicit on-demand paging needs on-demand paging enabled");
        }
    }

    /** Settings without implicit ODP, as every rxe has them. */
    public OdpSettings(boolean enabled, RemoteFaultPolicy remoteFaults, long faultCostNanos) {
        this(enabled, remoteFaults, faultCostNanos, false);
    }

    public OdpSettings withRemoteFaults(RemoteFaultPolicy policy) {
        return new OdpSettings(enabled, policy, faultCostNanos, implicit);
    }

    public OdpSettings withFaultCost(long nanos) {
        return new OdpSettings(enabled, remoteFaults, nanos, implicit);
    }

    /** The same settings with implicit ODP on or off; on needs ODP enabled. */
    public OdpSettings withImplicit(boolean on) {
        return new OdpSettings(enabled, remoteFaults, faultCostNanos, on);
    }
}
