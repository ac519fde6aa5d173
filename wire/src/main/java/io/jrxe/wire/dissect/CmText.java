package io.jrxe.wire.dissect;

import io.jrxe.wire.cm.AlternatePathStatus;
import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.IpCmServiceId;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.cm.RejectReason;
import io.jrxe.wire.cm.SidrStatus;
import io.jrxe.wire.pma.PerfMgmt;
import io.jrxe.wire.psn.LocalAckTimeout;

import java.util.HexFormat;

/** How the dissector words MAD and CM values: the meanings of codes, durations, MTUs, byte runs. */
final class CmText {
    private static final int BYTES_SHOWN = 32;

    private CmText() {
    }

    /** A value as the detail view shows it: the number and, where it is a code, what it means. */
    static String detail(MadFields.CmValue v) {
        CmField f = v.field();
        long n = v.number();
        return switch (f.kind()) {
            case NUMBER, FLAG -> Long.toString(n);
            case HEX, RESERVED -> hex(n, f.width());
            case SERVICE_ID -> hex(n, 64) + (IpCmServiceId.portSpace(n) != null ? " (" + IpCmServiceId.describe(n) + ")" : "");
            case TIMEOUT -> n + " (" + duration(4_096L << n) + ")";
            case ACK_TIMEOUT -> n + " (" + (n == 0 ? "none" : duration(LocalAckTimeout.nanos((int) n))) + ")";
            case MTU -> n + " (" + mtu(n) + ")";
            case REJECT_REASON -> n + " (" + RejectReason.describe((int) n) + ")";
            case MESSAGE -> n + " (" + message(n) + ")";
            case AP_STATUS -> n + " (" + AlternatePathStatus.describe((int) n) + ")";
            case SIDR_STATUS -> n + " (" + SidrStatus.describe((int) n) + ")";
            case GID -> Formats.ip(v.bytes());
            case BYTES -> bytes(v.bytes());
        };
    }

    /** A value as the summary line shows it: short, the meaning instead of the code where there is one. */
    static String brief(MadFields.CmValue v) {
        long n = v.number();
        return switch (v.field().kind()) {
            case SERVICE_ID -> IpCmServiceId.describe(n);
            case MTU -> mtu(n);
            case REJECT_REASON -> n + " (" + RejectReason.describe((int) n) + ")";
            case MESSAGE -> message(n);
            case AP_STATUS -> n + " (" + AlternatePathStatus.describe((int) n) + ")";
            case SIDR_STATUS -> n + " (" + SidrStatus.describe((int) n) + ")";
            default -> detail(v);
        };
    }

    /** An IB MTU code in bytes: 1 is 256 ... 5 is 4096. */
    static String mtu(long code) {
        return code >= 1 && code <= 5 ? Integer.toString(128 << code) : "invalid";
    }

    /** Which message a REJ or an MRA is about. */
    static String message(long code) {
        return switch ((int) code) {
            case 0 -> "REQ";
            case 1 -> "REP";
            case 2 -> "other";
            default -> "reserved";
        };
    }

    static String hex(long value, int width) {
        return String.format("0x%0" + Math.max(2, (width + 3) / 4) + "x", value);
    }

    static String duration(long nanos) {
        if (nanos >= 1_000_000_000L) {
            return String.format("%.2f s", nanos / 1e9);
        }
        if (nanos >= 1_000_000L) {
            return String.format("%.2f ms", nanos / 1e6);
        }
        return String.format("%.3f us", nanos / 1e3);
    }

    /** "92 bytes, all zero", or the length and the bytes up to the last non-zero one (at most 32 of them). */
    static String bytes(byte[] bytes) {
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] == 0) {
            end--;
        }
        if (end == 0) {
            return bytes.length + " bytes, all zero";
        }
        int shown = Math.min(end, BYTES_SHOWN);
        return bytes.length + " bytes: " + HexFormat.ofDelimiter(" ").formatHex(bytes, 0, shown)
                + (shown < end ? " ..." : "") + (end < bytes.length ? " (then zeros)" : "");
    }

    /** The management class by name where jrxe knows it. */
    static String managementClass(int mgmtClass) {
        return switch (mgmtClass) {
            case 0x01 -> "SM LID-routed";
            case 0x81 -> "SM directed-route";
            case 0x03 -> "SA";
            case PerfMgmt.MGMT_CLASS -> "PerfMgmt";
            case MadHeaderFlyweight.MGMT_CLASS_CM -> "CM";
            default -> "class 0x" + Integer.toHexString(mgmtClass);
        };
    }

    static String method(int method) {
        return switch (method) {
            case MadHeaderFlyweight.METHOD_GET -> "Get";
            case MadHeaderFlyweight.METHOD_SET -> "Set";
            case MadHeaderFlyweight.METHOD_SEND -> "Send";
            case MadHeaderFlyweight.METHOD_GET | MadHeaderFlyweight.METHOD_RESPONSE_BIT -> "GetResp";
            default -> "method 0x" + Integer.toHexString(method);
        };
    }

    /** "ConnectRequest (REQ)", "ClassPortInfo", or "attribute 0x0020" for a CM attribute jrxe does not know. */
    static String attribute(MadFields mad) {
        if (mad.cmAttribute() == null) {
            return String.format("attribute 0x%04x", mad.attributeId());
        }
        return mad.cmAttribute().isMessage()
                ? mad.cmAttribute().longName() + " (" + mad.cmAttribute().shortName() + ")" : mad.cmAttribute().longName();
    }

    /** The IP CM header's addresses and ports: "10.77.0.2:43847 -> 10.77.0.3:7174" (IPv6 ones in brackets). */
    static String endpoints(MadFields.IpCm ip) {
        return endpoint(ip.source(), ip.sourcePort()) + " -> " + endpoint(ip.destination(), IpCmServiceId.port(ip.serviceId()));
    }

    private static String endpoint(byte[] address, int port) {
        return address.length == 16 ? "[" + Formats.ip(address) + "]:" + port : Formats.ip(address) + ":" + port;
    }
}
