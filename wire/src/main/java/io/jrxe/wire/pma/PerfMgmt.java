package io.jrxe.wire.pma;

import io.jrxe.wire.cm.MadHeaderFlyweight;

/**
 * The Performance Management class (IBTA vol. 1, chapter 16.1): its class code and version, where a
 * PerfMgmt MAD's attribute starts, and the MAD status codes its agent answers with. A PerfMgmt MAD
 * is the 24-byte common MAD header ({@link MadHeaderFlyweight}), 40 reserved bytes, then 192 bytes
 * of attribute data; the attribute flyweights wrap at the MAD's offset + {@link #DATA_OFFSET}.
 */
public final class PerfMgmt {
    public static final int MGMT_CLASS = 0x04;
    public static final int CLASS_VERSION = 1;
    /** Bytes before the attribute data: the common header and the class's 40 reserved bytes. */
    public static final int DATA_OFFSET = MadHeaderFlyweight.LENGTH + 40;
    public static final int DATA_LENGTH = MadHeaderFlyweight.MAD_LENGTH - DATA_OFFSET;

    /** MAD status (IBTA 13.4.7, bits 4..2 of the status field): the class or base version is not supported. */
    public static final int STATUS_BAD_VERSION = 1 << 2;
    /** MAD status: the method is not supported. */
    public static final int STATUS_UNSUPPORTED_METHOD = 2 << 2;
    /** MAD status: the method is supported, but not for this attribute. */
    public static final int STATUS_UNSUPPORTED_METHOD_ATTRIBUTE = 3 << 2;

    /** ClassPortInfo capability: PortCountersExtended is supported, with all of its counters. */
    public static final int CAPABILITY_EXTENDED_WIDTH = 1 << 9;

    private PerfMgmt() {
    }

    /** A MAD status in words: "status 0x000c (unsupported method/attribute)". */
    public static String describeStatus(int status) {
        String meaning = switch (status & 0x1C) {
            case 0 -> "ok";
            case STATUS_BAD_VERSION -> "bad version";
            case STATUS_UNSUPPORTED_METHOD -> "unsupported method";
            case STATUS_UNSUPPORTED_METHOD_ATTRIBUTE -> "unsupported method/attribute";
            case 7 << 2 -> "invalid attribute value";
            default -> "reserved code";
        };
        return String.format("status 0x%04x (%s)", status, meaning);
    }
}
