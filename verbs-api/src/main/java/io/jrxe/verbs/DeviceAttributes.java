package io.jrxe.verbs;

/**
 * What a device can do, modelled on rxe's attributes (what `ibv_devinfo -v` prints for rxe0 on
 * Linux 6.x) and each one configurable, so that a teacher can make a tiny NIC whose limits show.
 *
 * @param firmwareVersion the firmware version string (rxe: 0.0.0)
 * @param vendorId the IEEE vendor id
 * @param vendorPartId the vendor's part id
 * @param hardwareVersion the hardware version
 * @param maxMrSize the largest memory region, in bytes (-1: no limit)
 * @param pageSizeCap the page sizes supported, one bit each
 * @param maxQp how many QPs the device holds
 * @param maxQpWr how many work requests one queue holds
 * @param maxSge scatter/gather entries in one send or receive work request
 * @param maxSgeRd scatter/gather entries in one READ
 * @param maxInlineData bytes of inline data in one send work request
 * @param maxCq how many CQs the device holds
 * @param maxCqe how many completions one CQ holds
 * @param maxMr how many memory regions the device holds
 * @param maxPd how many protection domains the device holds
 * @param maxQpRdAtom READs and atomics one QP accepts outstanding as responder
 * @param maxResRdAtom READ and atomic responder resources of the whole device
 * @param maxQpInitRdAtom READs and atomics one QP keeps outstanding as requester
 * @param atomicCapability how atomic operations are atomic
 * @param maxMw how many memory windows the device holds
 * @param maxMcastGrp how many multicast groups the device's QPs may be attached to at once (0: no multicast)
 * @param maxMcastQpAttach how many QPs one multicast group holds
 * @param maxTotalMcastQpAttach how many QP attachments all multicast groups hold together
 * @param maxAh how many address handles the device holds
 * @param maxSrq how many SRQs the device holds
 * @param maxSrqWr how many work requests one SRQ holds
 * @param maxSrqSge scatter/gather entries in one SRQ receive
 * @param maxPkeys the size of the P_Key table
 * @param localCaAckDelay the local CA ACK delay (4.096 us times 2 to this power)
 * @param memoryWindowType1 whether type 1 memory windows are supported
 * @param memoryWindowType2 whether type 2 memory windows are supported
 * @param odpCapabilities what on-demand paging covers (ibv_query_device_ex's odp_caps)
 */
public record DeviceAttributes(
        String firmwareVersion,
        int vendorId,
        int vendorPartId,
        int hardwareVersion,
        long maxMrSize,
        long pageSizeCap,
        int maxQp,
        int maxQpWr,
        int maxSge,
        int maxSgeRd,
        int maxInlineData,
        int maxCq,
        int maxCqe,
        int maxMr,
        int maxPd,
        int maxQpRdAtom,
        int maxResRdAtom,
        int maxQpInitRdAtom,
        AtomicCapability atomicCapability,
        int maxMw,
        int maxMcastGrp,
        int maxMcastQpAttach,
        int maxTotalMcastQpAttach,
        int maxAh,
        int maxSrq,
        int maxSrqWr,
        int maxSrqSge,
        int maxPkeys,
        int localCaAckDelay,
        boolean memoryWindowType1,
        boolean memoryWindowType2,
        OdpCapabilities odpCapabilities) {

    /** How atomic a device's atomic operations are (libibverbs' enum ibv_atomic_cap). */
    public enum AtomicCapability {
        /** No atomic operations. */
        NONE,
        /** Atomic with respect to other atomics of this device. */
        HCA,
        /** Atomic with respect to every access of the memory. */
        GLOB
    }

    /**
     * rxe's values (rxe_param.h; the multicast limits are RXE_MAX_MCAST_GRP and its two neighbours; the ODP caps
     * rxe's since Linux 6.16).
     */
    public static DeviceAttributes rxeDefaults() {
        return new DeviceAttributes("0.0.0", 0xFFFFFF, 0, 0,
                -1L, 0xFFFFF000L,
                1_048_560, 1_048_576, 32, 32, 1024,
                1_048_576, 32_767, 524_287, 1_048_576,
                128, 258_048, 128, AtomicCapability.HCA,
                524_287, 8192, 56, 0x70000, 32_768, 917_503, 1_048_576, 27, 64, 15,
                true, true, OdpCapabilities.RXE);
    }

    /** A builder that starts from these attributes. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** A builder that starts from rxe's attributes. */
    public static Builder builder() {
        return new Builder(rxeDefaults());
    }

    /** Changes a few attributes of a set, keeping the rest. */
    public static final class Builder {
        private String firmwareVersion;
        private int vendorId;
        private int vendorPartId;
        private int hardwareVersion;
        private long maxMrSize;
        private long pageSizeCap;
        private int maxQp;
        private int maxQpWr;
        private int maxSge;
        private int maxSgeRd;
        private int maxInlineData;
        private int maxCq;
        private int maxCqe;
        private int maxMr;
        private int maxPd;
        private int maxQpRdAtom;
        private int maxResRdAtom;
        private int maxQpInitRdAtom;
        private AtomicCapability atomicCapability;
        private int maxMw;
        private int maxMcastGrp;
        private int maxMcastQpAttach;
        private int maxTotalMcastQpAttach;
        private int maxAh;
        private int maxSrq;
        private int maxSrqWr;
        private int maxSrqSge;
        private int maxPkeys;
        private int localCaAckDelay;
        private boolean memoryWindowType1;
        private boolean memoryWindowType2;
        private OdpCapabilities odpCapabilities;

        private Builder(DeviceAttributes a) {
            firmwareVersion = a.firmwareVersion;
            vendorId = a.vendorId;
            vendorPartId = a.vendorPartId;
            hardwareVersion = a.hardwareVersion;
            maxMrSize = a.maxMrSize;
            pageSizeCap = a.pageSizeCap;
            maxQp = a.maxQp;
            maxQpWr = a.maxQpWr;
            maxSge = a.maxSge;
            maxSgeRd = a.maxSgeRd;
            maxInlineData = a.maxInlineData;
            maxCq = a.maxCq;
            maxCqe = a.maxCqe;
            maxMr = a.maxMr;
            maxPd = a.maxPd;
            maxQpRdAtom = a.maxQpRdAtom;
            maxResRdAtom = a.maxResRdAtom;
            maxQpInitRdAtom = a.maxQpInitRdAtom;
            atomicCapability = a.atomicCapability;
            maxMw = a.maxMw;
            maxMcastGrp = a.maxMcastGrp;
            maxMcastQpAttach = a.maxMcastQpAttach;
            maxTotalMcastQpAttach = a.maxTotalMcastQpAttach;
            maxAh = a.maxAh;
            maxSrq = a.maxSrq;
            maxSrqWr = a.maxSrqWr;
            maxSrqSge = a.maxSrqSge;
            maxPkeys = a.maxPkeys;
            localCaAckDelay = a.localCaAckDelay;
            memoryWindowType1 = a.memoryWindowType1;
            memoryWindowType2 = a.memoryWindowType2;
            odpCapabilities = a.odpCapabilities;
        }

        /** Sets {@link DeviceAttributes#firmwareVersion()}; returns this. */
        public Builder firmwareVersion(String v) { firmwareVersion = v; return this; }
        /** Sets {@link DeviceAttributes#vendorId()}; returns this. */
        public Builder vendorId(int v) { vendorId = v; return this; }
        /** Sets {@link DeviceAttributes#vendorPartId()}; returns this. */
        public Builder vendorPartId(int v) { vendorPartId = v; return this; }
        /** Sets {@link DeviceAttributes#hardwareVersion()}; returns this. */
        public Builder hardwareVersion(int v) { hardwareVersion = v; return this; }
        /** Sets {@link DeviceAttributes#maxMrSize()}; returns this. */
        public Builder maxMrSize(long v) { maxMrSize = v; return this; }
        /** Sets {@link DeviceAttributes#pageSizeCap()}; returns this. */
        public Builder pageSizeCap(long v) { pageSizeCap = v; return this; }
        /** Sets {@link DeviceAttributes#maxQp()}; returns this. */
        public Builder maxQp(int v) { maxQp = v; return this; }
        /** Sets {@link DeviceAttributes#maxQpWr()}; returns this. */
        public Builder maxQpWr(int v) { maxQpWr = v; return this; }
        /** Sets {@link DeviceAttributes#maxSge()}; returns this. */
        public Builder maxSge(int v) { maxSge = v; return this; }
        /** Sets {@link DeviceAttributes#maxSgeRd()}; returns this. */
        public Builder maxSgeRd(int v) { maxSgeRd = v; return this; }
        /** Sets {@link DeviceAttributes#maxInlineData()}; returns this. */
        public Builder maxInlineData(int v) { maxInlineData = v; return this; }
        /** Sets {@link DeviceAttributes#maxCq()}; returns this. */
        public Builder maxCq(int v) { maxCq = v; return this; }
        /** Sets {@link DeviceAttributes#maxCqe()}; returns this. */
        public Builder maxCqe(int v) { maxCqe = v; return this; }
        /** Sets {@link DeviceAttributes#maxMr()}; returns this. */
        public Builder maxMr(int v) { maxMr = v; return this; }
        /** Sets {@link DeviceAttributes#maxPd()}; returns this. */
        public Builder maxPd(int v) { maxPd = v; return this; }
        /** Sets {@link DeviceAttributes#maxQpRdAtom()}; returns this. */
        public Builder maxQpRdAtom(int v) { maxQpRdAtom = v; return this; }
        /** Sets {@link DeviceAttributes#maxResRdAtom()}; returns this. */
        public Builder maxResRdAtom(int v) { maxResRdAtom = v; return this; }
        /** Sets {@link DeviceAttributes#maxQpInitRdAtom()}; returns this. */
        public Builder maxQpInitRdAtom(int v) { maxQpInitRdAtom = v; return this; }
        /** Sets {@link DeviceAttributes#atomicCapability()}; returns this. */
        public Builder atomicCapability(AtomicCapability v) { atomicCapability = v; return this; }
        /** Sets {@link DeviceAttributes#maxMw()}; returns this. */
        public Builder maxMw(int v) { maxMw = v; return this; }
        /** Sets {@link DeviceAttributes#maxMcastGrp()}; returns this. */
        public Builder maxMcastGrp(int v) { maxMcastGrp = v; return this; }
        /** Sets {@link DeviceAttributes#maxMcastQpAttach()}; returns this. */
        public Builder maxMcastQpAttach(int v) { maxMcastQpAttach = v; return this; }
        /** Sets {@link DeviceAttributes#maxTotalMcastQpAttach()}; returns this. */
        public Builder maxTotalMcastQpAttach(int v) { maxTotalMcastQpAttach = v; return this; }
        /** Sets {@link DeviceAttributes#maxAh()}; returns this. */
        public Builder maxAh(int v) { maxAh = v; return this; }
        /** Sets {@link DeviceAttributes#maxSrq()}; returns this. */
        public Builder maxSrq(int v) { maxSrq = v; return this; }
        /** Sets {@link DeviceAttributes#maxSrqWr()}; returns this. */
        public Builder maxSrqWr(int v) { maxSrqWr = v; return this; }
        /** Sets {@link DeviceAttributes#maxSrqSge()}; returns this. */
        public Builder maxSrqSge(int v) { maxSrqSge = v; return this; }
        /** Sets {@link DeviceAttributes#maxPkeys()}; returns this. */
        public Builder maxPkeys(int v) { maxPkeys = v; return this; }
        /** Sets {@link DeviceAttributes#localCaAckDelay()}; returns this. */
        public Builder localCaAckDelay(int v) { localCaAckDelay = v; return this; }
        /** Sets {@link DeviceAttributes#memoryWindowType1()}; returns this. */
        public Builder memoryWindowType1(boolean v) { memoryWindowType1 = v; return this; }
        /** Sets {@link DeviceAttributes#memoryWindowType2()}; returns this. */
        public Builder memoryWindowType2(boolean v) { memoryWindowType2 = v; return this; }
        /** Sets {@link DeviceAttributes#odpCapabilities()}; returns this. */
        public Builder odpCapabilities(OdpCapabilities v) { odpCapabilities = v; return this; }

        /** The attributes as set. */
        public DeviceAttributes build() {
            return new DeviceAttributes(firmwareVersion, vendorId, vendorPartId, hardwareVersion, maxMrSize,
                    pageSizeCap, maxQp, maxQpWr, maxSge, maxSgeRd, maxInlineData, maxCq, maxCqe, maxMr, maxPd,
                    maxQpRdAtom, maxResRdAtom, maxQpInitRdAtom, atomicCapability, maxMw, maxMcastGrp, maxMcastQpAttach,
                    maxTotalMcastQpAttach, maxAh, maxSrq, maxSrqWr,
                    maxSrqSge, maxPkeys, localCaAckDelay, memoryWindowType1, memoryWindowType2, odpCapabilities);
        }
    }
}
