package io.jrxe.wire.pma;

import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.CmField.Kind;
import io.jrxe.wire.header.Flyweight;

import java.util.List;

/**
 * PortCountersExtended (IBTA 16.1.4.11, attribute 0x001D), 72 bytes: a port's traffic counters
 * 64 bits wide (data in 4-byte words), all of them and the unicast and multicast packet counts
 * apart. Wrap it at the MAD's offset + {@link PerfMgmt#DATA_OFFSET}.
 */
public final class PortCountersExtendedFlyweight extends Flyweight<PortCountersExtendedFlyweight> {
    public static final int LENGTH = 72;

    public static final CmField RESERVED_0 = CmField.reserved(0, 0, 8);
    public static final CmField PORT_SELECT = number("port_select", "PortSelect", 1, 8);
    public static final CmField COUNTER_SELECT = CmField.number(Kind.HEX, "counter_select", "CounterSelect", 2, 0, 16);
    public static final CmField RESERVED_4 = CmField.reserved(4, 0, 32);
    public static final CmField XMIT_DATA = number("port_xmit_data", "PortXmitData", 8, 64);
    public static final CmField RCV_DATA = number("port_rcv_data", "PortRcvData", 16, 64);
    public static final CmField XMIT_PACKETS = number("port_xmit_pkts", "PortXmitPkts", 24, 64);
    public static final CmField RCV_PACKETS = number("port_rcv_pkts", "PortRcvPkts", 32, 64);
    public static final CmField UNICAST_XMIT_PACKETS = number("port_unicast_xmit_pkts", "PortUnicastXmitPkts", 40, 64);
    public static final CmField UNICAST_RCV_PACKETS = number("port_unicast_rcv_pkts", "PortUnicastRcvPkts", 48, 64);
    public static final CmField MULTICAST_XMIT_PACKETS =
            number("port_multicast_xmit_pkts", "PortMulticastXmitPkts", 56, 64);
    public static final CmField MULTICAST_RCV_PACKETS = number("port_multicast_rcv_pkts", "PortMulticastRcvPkts", 64, 64);

    /** Every field in wire order; together they cover the attribute's 72 bytes. */
    public static final List<CmField> FIELDS = List.of(RESERVED_0, PORT_SELECT, COUNTER_SELECT, RESERVED_4, XMIT_DATA,
            RCV_DATA, XMIT_PACKETS, RCV_PACKETS, UNICAST_XMIT_PACKETS, UNICAST_RCV_PACKETS, MULTICAST_XMIT_PACKETS,
            MULTICAST_RCV_PACKETS);

    private static CmField number(String name, String label, int byteOffset, int width) {
        return CmField.number(Kind.NUMBER, name, label, byteOffset, 0, width);
    }

    @Override
    public int length() {
        return LENGTH;
    }

    public long get(CmField field) {
        return field.get(buffer, offset);
    }

    public PortCountersExtendedFlyweight set(CmField field, long value) {
        field.set(buffer, offset, value);
        return this;
    }

    /** Zeroes all 72 bytes. */
    public PortCountersExtendedFlyweight clear() {
        for (int i = 0; i < LENGTH; i += 8) {
            i64(i, 0);
        }
        return this;
    }
}
