package io.jrxe.wire.cm;

/**
 * Where IBTA's CM tables put every field of every CM message (byte, bit from the most
 * significant, width), written against the flyweights' accessor names. Byte offsets count from
 * the start of the message, after the MAD header, as the tables do.
 */
final class CmLayouts {
    private CmLayouts() {
    }

    static ExpectedLayout<ReqFlyweight> req() {
        ExpectedLayout<ReqFlyweight> l = ExpectedLayout.message(ReqFlyweight.class, ReqFlyweight::new)
                .number("localCommId", 0, 0, 32)
                .reserved(4, 0, 32)
                .number("serviceId", 8, 0, 64)
                .number("localCaGuid", 16, 0, 64)
                .reserved(24, 0, 32)
                .number("localQkey", 28, 0, 32)
                .number("localQpn", 32, 0, 24)
                .number("responderResources", 35, 0, 8)
                .number("localEecn", 36, 0, 24)
                .number("initiatorDepth", 39, 0, 8)
                .number("remoteEecn", 40, 0, 24)
                .number("remoteCmResponseTimeout", 43, 0, 5)
                .number("transportServiceType", 43, 5, 2)
                .number("endToEndFlowControl", 43, 7, 1)
                .number("startingPsn", 44, 0, 24)
                .number("localCmResponseTimeout", 47, 0, 5)
                .number("retryCount", 47, 5, 3)
                .number("partitionKey", 48, 0, 16)
                .number("pathMtu", 50, 0, 4)
                .number("rdcExists", 50, 4, 1)
                .number("rnrRetryCount", 50, 5, 3)
                .number("maxCmRetries", 51, 0, 4)
                .number("srq", 51, 4, 1)
                .number("extendedTransportType", 51, 5, 3);
        path(l, "primary", 52);
        path(l, "alternate", 96);
        return l.number("sapSupported", 139, 5, 1)
                .reserved(139, 6, 2)
                .bytes("privateData", 140, 92);
    }

    /** The primary (at 52) and alternate (at 96) path blocks of a REQ, alike but for the SAP bit after the latter. */
    private static void path(ExpectedLayout<ReqFlyweight> l, String which, int at) {
        l.number(which + "LocalLid", at, 0, 16)
                .number(which + "RemoteLid", at + 2, 0, 16)
                .bytes(which + "LocalGid", at + 4, 16)
                .bytes(which + "RemoteGid", at + 20, 16)
                .number(which + "FlowLabel", at + 36, 0, 20)
                .reserved(at + 38, 4, 6)
                .number(which + "PacketRate", at + 39, 2, 6)
                .number(which + "TrafficClass", at + 40, 0, 8)
                .number(which + "HopLimit", at + 41, 0, 8)
                .number(which + "Sl", at + 42, 0, 4)
                .number(which + "SubnetLocal", at + 42, 4, 1)
                .reserved(at + 42, 5, 3)
                .number(which + "LocalAckTimeout", at + 43, 0, 5);
        if (which.equals("primary")) {
            l.reserved(at + 43, 5, 3);
        }
    }

    static ExpectedLayout<MraFlyweight> mra() {
        return ExpectedLayout.message(MraFlyweight.class, MraFlyweight::new)
                .number("localCommId", 0, 0, 32)
                .number("remoteCommId", 4, 0, 32)
                .number("messageMraed", 8, 0, 2)
                .reserved(8, 2, 6)
                .number("serviceTimeout", 9, 0, 5)
                .reserved(9, 5, 3)
                .bytes("privateData", 10, 222);
    }

    static ExpectedLayout<RejFlyweight> rej() {
        return ExpectedLayout.message(RejFlyweight.class, RejFlyweight::new)
                .number("localCommId", 0, 0, 32)
                .number("remoteCommId", 4, 0, 32)
                .number("messageRejected", 8, 0, 2)
                .reserved(8, 2, 6)
                .number("rejectInfoLength", 9, 0, 7)
                .reserved(9, 7, 1)
                .number("reason", 10, 0, 16)
                .bytes("additionalRejectInfo", 12, 72)
                .bytes("privateData", 84, 148);
    }

    static ExpectedLayout<RepFlyweight> rep() {
        return ExpectedLayout.message(RepFlyweight.class, RepFlyweight::new)
                .number("localCommId", 0, 0, 32)
                .number("remoteCommId", 4, 0, 32)
                .number("localQkey", 8, 0, 32)
                .number("localQpn", 12, 0, 24)
                .reserved(15, 0, 8)
                .number("localEecn", 16, 0, 24)
                .reserved(19, 0, 8)
                .number("startingPsn", 20, 0, 24)
                .reserved(23, 0, 8)
                .number("responderResources", 24, 0, 8)
                .number("initiatorDepth", 25, 0, 8)
                .number("targetAckDelay", 26, 0, 5)
                .number("failoverAccepted", 26, 5, 2)
                .number("endToEndFlowControl", 26, 7, 1)
                .number("rnrRetryCount", 27, 0, 3)
                .number("srq", 27, 3, 1)
                .reserved(27, 4, 4)
                .number("localCaGuid", 28, 0, 64)
                .bytes("privateData", 36, 196);
    }

    static ExpectedLayout<RtuFlyweight> rtu() {
        return ExpectedLayout.message(RtuFlyweight.class, RtuFlyweight::new)
                .number("localCommId", 0, 0, 32)
                .number("remoteCommId", 4, 0, 32)
                .bytes("privateData", 8, 224);
    }

    static ExpectedLayout<DreqFlyweight> dreq() {
        return ExpectedLayout.message(DreqFlyweight.class, DreqFlyweight::new)
                .number("localCommId", 0, 0, 32)
                .number("remoteCommId", 4, 0, 32)
                .number("remoteQpn", 8, 0, 24)
                .reserved(11, 0, 8)
                .bytes("privateData", 12, 220);
    }

    static ExpectedLayout<DrepFlyweight> drep() {
        return ExpectedLayout.message(DrepFlyweight.class, DrepFlyweight::new)
                .number("localCommId", 0, 0, 32)
                .number("remoteCommId", 4, 0, 32)
                .bytes("privateData", 8, 224);
    }

    static ExpectedLayout<LapFlyweight> lap() {
        return ExpectedLayout.message(LapFlyweight.class, LapFlyweight::new)
                .number("localCommId", 0, 0, 32)
                .number("remoteCommId", 4, 0, 32)
                .reserved(8, 0, 32)
                .number("remoteQpn", 12, 0, 24)
                .number("remoteCmResponseTimeout", 15, 0, 5)
                .reserved(15, 5, 3)
                .reserved(16, 0, 32)
                .number("alternateLocalLid", 20, 0, 16)
                .number("alternateRemoteLid", 22, 0, 16)
                .bytes("alternateLocalGid", 24, 16)
                .bytes("alternateRemoteGid", 40, 16)
                .number("alternateFlowLabel", 56, 0, 20)
                .reserved(58, 4, 4)
                .number("alternateTrafficClass", 59, 0, 8)
                .number("alternateHopLimit", 60, 0, 8)
                .reserved(61, 0, 2)
                .number("alternatePacketRate", 61, 2, 6)
                .number("alternateSl", 62, 0, 4)
                .number("alternateSubnetLocal", 62, 4, 1)
                .reserved(62, 5, 3)
                .number("alternateLocalAckTimeout", 63, 0, 5)
                .reserved(63, 5, 3)
                .bytes("privateData", 64, 168);
    }

    static ExpectedLayout<AprFlyweight> apr() {
        return ExpectedLayout.message(AprFlyweight.class, AprFlyweight::new)
                .number("localCommId", 0, 0, 32)
                .number("remoteCommId", 4, 0, 32)
                .number("additionalInfoLength", 8, 0, 8)
                .number("apStatus", 9, 0, 8)
                .reserved(10, 0, 16)
                .bytes("additionalInfo", 12, 72)
                .bytes("privateData", 84, 148);
    }

    static ExpectedLayout<SidrReqFlyweight> sidrReq() {
        return ExpectedLayout.message(SidrReqFlyweight.class, SidrReqFlyweight::new)
                .number("requestId", 0, 0, 32)
                .number("partitionKey", 4, 0, 16)
                .reserved(6, 0, 16)
                .number("serviceId", 8, 0, 64)
                .bytes("privateData", 16, 216);
    }

    static ExpectedLayout<SidrRepFlyweight> sidrRep() {
        return ExpectedLayout.message(SidrRepFlyweight.class, SidrRepFlyweight::new)
                .number("requestId", 0, 0, 32)
                .number("status", 4, 0, 8)
                .number("additionalInfoLength", 5, 0, 8)
                .reserved(6, 0, 16)
                .number("qpn", 8, 0, 24)
                .reserved(11, 0, 8)
                .number("serviceId", 12, 0, 64)
                .number("qkey", 20, 0, 32)
                .bytes("classPortInfo", 24, 72)
                .bytes("privateData", 96, 136);
    }

    static ExpectedLayout<?> of(CmAttribute attribute) {
        return switch (attribute) {
            case REQ -> req();
            case MRA -> mra();
            case REJ -> rej();
            case REP -> rep();
            case RTU -> rtu();
            case DREQ -> dreq();
            case DREP -> drep();
            case SIDR_REQ -> sidrReq();
            case SIDR_REP -> sidrRep();
            case LAP -> lap();
            case APR -> apr();
            case CLASS_PORT_INFO -> throw new IllegalArgumentException("ClassPortInfo is not decoded");
        };
    }
}
