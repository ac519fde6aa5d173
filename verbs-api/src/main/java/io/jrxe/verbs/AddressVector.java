package io.jrxe.verbs;

import java.util.Arrays;

/**
 * Where packets go (ibv_ah_attr with its GRH): on RoCE the destination GID is the peer's IP
 * address, the source GID index picks one of the port's GIDs, and hop limit, traffic class and
 * flow label go into the IP header.
 */
public record AddressVector(byte[] dgid, int sgidIndex, int hopLimit, int trafficClass, int flowLabel, int serviceLevel,
                            int portNum) {
    /** Checks the ranges (16-byte GID, hop limit and traffic class 0..255, flow label 20 bits, SL 0..15). */
    public AddressVector {
        if (dgid == null || dgid.length != 16) {
            throw new IllegalArgumentException("the destination GID must have 16 bytes");
        }
        dgid = dgid.clone();
        if (hopLimit < 0 || hopLimit > 255) {
            throw new IllegalArgumentException("hop limit " + hopLimit + " is out of range 0..255");
        }
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("traffic class " + trafficClass + " is out of range 0..255");
        }
        if (flowLabel < 0 || flowLabel > 0xFFFFF) {
            throw new IllegalArgumentException("flow label " + flowLabel + " is out of range 0..0xfffff");
        }
        if (serviceLevel < 0 || serviceLevel > 15) {
            throw new IllegalArgumentException("service level " + serviceLevel + " is out of range 0..15");
        }
    }

    /** rxe's defaults: hop limit 64 for RoCEv2 traffic, port 1. */
    public static AddressVector to(byte[] dgid, int sgidIndex) {
        return new AddressVector(dgid, sgidIndex, 64, 0, 0, 0, 1);
    }

    /** A copy of the destination GID. */
    @Override
    public byte[] dgid() {
        return dgid.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AddressVector a && Arrays.equals(a.dgid, dgid) && a.sgidIndex == sgidIndex
                && a.hopLimit == hopLimit && a.trafficClass == trafficClass && a.flowLabel == flowLabel
                && a.serviceLevel == serviceLevel && a.portNum == portNum;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dgid) * 31 + sgidIndex;
    }
}
