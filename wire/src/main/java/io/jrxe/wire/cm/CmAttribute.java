package io.jrxe.wire.cm;

import java.util.List;

/**
 * The attribute IDs of the communication management class (IBTA vol. 1, chapter 12): one per CM message,
 * and ClassPortInfo. Each message has a short IBTA name (REQ) and the longer name Wireshark
 * shows for it (ConnectRequest).
 */
public enum CmAttribute {
    CLASS_PORT_INFO(0x0001, "ClassPortInfo", "ClassPortInfo"),
    REQ(0x0010, "REQ", "ConnectRequest"),
    MRA(0x0011, "MRA", "MsgRcptAck"),
    REJ(0x0012, "REJ", "ConnectReject"),
    REP(0x0013, "REP", "ConnectReply"),
    RTU(0x0014, "RTU", "ReadyToUse"),
    DREQ(0x0015, "DREQ", "DisconnectRequest"),
    DREP(0x0016, "DREP", "DisconnectReply"),
    SIDR_REQ(0x0017, "SIDR_REQ", "ServiceIDResReq"),
    SIDR_REP(0x0018, "SIDR_REP", "ServiceIDResReqResp"),
    LAP(0x0019, "LAP", "LoadAlternatePath"),
    APR(0x001A, "APR", "AlternatePathResponse");

    private final int id;
    private final String shortName;
    private final String longName;

    CmAttribute(int id, String shortName, String longName) {
        this.id = id;
        this.shortName = shortName;
        this.longName = longName;
    }

    public int id() {
        return id;
    }

    /** IBTA's abbreviation: REQ, REP, RTU, ... */
    public String shortName() {
        return shortName;
    }

    /** The message spelt out as Wireshark names it: ConnectRequest, ConnectReply, ... */
    public String longName() {
        return longName;
    }

    /** True for the eleven CM messages (every attribute but ClassPortInfo). */
    public boolean isMessage() {
        return this != CLASS_PORT_INFO;
    }

    /** The message's fields in wire order, covering its 232 bytes; empty for ClassPortInfo, which jrxe does not decode. */
    public List<CmField> fields() {
        // A switch rather than a constructor argument: the flyweight classes name this enum, so
        // their field lists must not be needed while it initialises.
        return switch (this) {
            case CLASS_PORT_INFO -> List.of();
            case REQ -> ReqFlyweight.FIELDS;
            case MRA -> MraFlyweight.FIELDS;
            case REJ -> RejFlyweight.FIELDS;
            case REP -> RepFlyweight.FIELDS;
            case RTU -> RtuFlyweight.FIELDS;
            case DREQ -> DreqFlyweight.FIELDS;
            case DREP -> DrepFlyweight.FIELDS;
            case SIDR_REQ -> SidrReqFlyweight.FIELDS;
            case SIDR_REP -> SidrRepFlyweight.FIELDS;
            case LAP -> LapFlyweight.FIELDS;
            case APR -> AprFlyweight.FIELDS;
        };
    }

    /** The attribute with this ID, or null when the CM class defines none. */
    public static CmAttribute of(int id) {
        for (CmAttribute a : values()) {
            if (a.id == id) {
                return a;
            }
        }
        return null;
    }
}
