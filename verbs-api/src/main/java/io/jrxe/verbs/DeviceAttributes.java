package io.jrxe.verbs;

/**
 * What a device can do, modelled on rxe's attributes (what `ibv_devinfo -v` prints for rxe0 on
 * Linux 6.x) and each one configurable, so that a teacher can make a tiny NIC whose limits show.
 *
 * @param mttEntries capacity of the memory translation table, in 8-byte entries (default 2M:
 *                   16 MiB of translation memory, enough for 8 GiB of 4 KiB pages)
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
        int maxAh,
        int maxSrq,
        int maxSrqWr,
        int maxSrqSge,
        int maxPkeys,
        int localCaAckDelay,
        boolean memoryWindowType1,
        boolean memoryWindowType2,
        long mttEntries) {

    public enum AtomicCapability { NONE, HCA, GLOB }

    /** rxe's values. */
    public static DeviceAttributes rxeDefaults() {
        return new DeviceAttributes("0.0.0", 0xFFFFFF, 0, 0,
                -1L, 0xFFFFF000L,
                1_048_560, 1_048_576, 32, 32, 1024,
                1_048_576, 32_767, 524_287, 1_048_576,
                128, 258_048, 128, AtomicCapability.HCA,
                524_287, 32_768, 917_503, 1_048_576, 27, 64, 15,
                true, true, 2L * 1024 * 1024);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

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
        private int maxAh;
        private int maxSrq;
        private int maxSrqWr;
        private int maxSrqSge;
        private int maxPkeys;
        private int localCaAckDelay;
        private boolean memoryWindowType1;
        private boolean memoryWindowType2;
        private long mttEntries;

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
            maxAh = a.maxAh;
            maxSrq = a.maxSrq;
            maxSrqWr = a.maxSrqWr;
            maxSrqSge = a.maxSrqSge;
            maxPkeys = a.maxPkeys;
            localCaAckDelay = a.localCaAckDelay;
            memoryWindowType1 = a.memoryWindowType1;
            memoryWindowType2 = a.memoryWindowType2;
            mttEntries = a.mttEntries;
        }

        public Builder firmwareVersion(String v) { firmwareVersion = v; return this; }
        public Builder vendorId(int v) { vendorId = v; return this; }
        public Builder vendorPartId(int v) { vendorPartId = v; return this; }
        public Builder hardwareVersion(int v) { hardwareVersion = v; return this; }
        public Builder maxMrSize(long v) { maxMrSize = v; return this; }
        public Builder pageSizeCap(long v) { pageSizeCap = v; return this; }
        public Builder maxQp(int v) { maxQp = v; return this; }
        public Builder maxQpWr(int v) { maxQpWr = v; return this; }
        public Builder maxSge(int v) { maxSge = v; return this; }
        public Builder maxSgeRd(int v) { maxSgeRd = v; return this; }
        public Builder maxInlineData(int v) { maxInlineData = v; return this; }
        public Builder maxCq(int v) { maxCq = v; return this; }
        public Builder maxCqe(int v) { maxCqe = v; return this; }
        public Builder maxMr(int v) { maxMr = v; return this; }
        public Builder maxPd(int v) { maxPd = v; return this; }
        public Builder maxQpRdAtom(int v) { maxQpRdAtom = v; return this; }
        public Builder maxResRdAtom(int v) { maxResRdAtom = v; return this; }
        public Builder maxQpInitRdAtom(int v) { maxQpInitRdAtom = v; return this; }
        public Builder atomicCapability(AtomicCapability v) { atomicCapability = v; return this; }
        public Builder maxMw(int v) { maxMw = v; return this; }
        public Builder maxAh(int v) { maxAh = v; return this; }
        public Builder maxSrq(int v) { maxSrq = v; return this; }
        public Builder maxSrqWr(int v) { maxSrqWr = v; return this; }
        public Builder maxSrqSge(int v) { maxSrqSge = v; return this; }
        public Builder maxPkeys(int v) { maxPkeys = v; return this; }
        public Builder localCaAckDelay(int v) { localCaAckDelay = v; return this; }
        public Builder memoryWindowType1(boolean v) { memoryWindowType1 = v; return this; }
        public Builder memoryWindowType2(boolean v) { memoryWindowType2 = v; return this; }
        public Builder mttEntries(long v) { mttEntries = v; return this; }

        public DeviceAttributes build() {
            return new DeviceAttributes(firmwareVersion, vendorId, vendorPartId, hardwareVersion, maxMrSize,
                    pageSizeCap, maxQp, maxQpWr, maxSge, maxSgeRd, maxInlineData, maxCq, maxCqe, maxMr, maxPd,
                    maxQpRdAtom, maxResRdAtom, maxQpInitRdAtom, atomicCapability, maxMw, maxAh, maxSrq, maxSrqWr,
                    maxSrqSge, maxPkeys, localCaAckDelay, memoryWindowType1, memoryWindowType2, mttEntries);
        }
    }
}
