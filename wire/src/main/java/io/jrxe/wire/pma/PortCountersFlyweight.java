package io.jrxe.wire.pma;

import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.CmField.Kind;
import io.jrxe.wire.header.Flyweight;

import java.util.List;

/**
 * PortCounters (IBTA 16.1.3.5, attribute 0x0012), 44 bytes: a port's error counters and its 32-bit
 * traffic counters. Every counter stops at all ones instead of wrapping; the data counters count
 * 4-byte words. Wrap it at the MAD's offset + {@link PerfMgmt#DATA_OFFSET}.
 */
public final class PortCountersFlyweight extends Flyweight<PortCountersFlyweight> {
    public static final int LENGTH = 44;

    public static final CmField RESERVED_0 = CmField.reserved(0, 0, 8);
    public static final CmField PORT_SELECT = number("port_select", "PortSelect", 1, 0, 8);
    public static final CmField COUNTER_SELECT = CmField.number(Kind.HEX, "counter_select", "CounterSelect", 2, 0, 16);
    public static final CmField SYMBOL_ERRORS = number("symbol_error_counter", "SymbolErrorCounter", 4, 0, 16);
    public static final CmField LINK_ERROR_RECOVERIES =
            number("link_error_recovery_counter", "LinkErrorRecoveryCounter", 6, 0, 8);
    public static final CmField LINK_DOWNED = number("link_downed_counter", "LinkDownedCounter", 7, 0, 8);
    public static final CmField RCV_ERRORS = number("port_rcv_errors", "PortRcvErrors", 8, 0, 16);
    public static final CmField RCV_REMOTE_PHYSICAL_ERRORS =
            number("port_rcv_remote_physical_errors", "PortRcvRemotePhysicalErrors", 10, 0, 16);
    public static final CmField RCV_SWITCH_RELAY_ERRORS =
            number("port_rcv_switch_relay_errors", "PortRcvSwitchRelayErrors", 12, 0, 16);
    public static final CmField XMIT_DISCARDS = number("port_xmit_discards", "PortXmitDiscards", 14, 0, 16);
    public static final CmField XMIT_CONSTRAINT_ERRORS =
            number("port_xmit_constraint_errors", "PortXmitConstraintErrors", 16, 0, 8);
    public static final CmField RCV_CONSTRAINT_ERRORS =
            number("port_rcv_constraint_errors", "PortRcvConstraintErrors", 17, 0, 8);
    public static final CmField COUNTER_SELECT2 = CmField.number(Kind.HEX, "counter_select2", "CounterSelect2", 18, 0, 8);
    public static final CmField LOCAL_LINK_INTEGRITY_ERRORS =
            number("local_link_integrity_errors", "LocalLinkIntegrityErrors", 19, 0, 4);
    public static final CmField EXCESSIVE_BUFFER_OVERRUNS =
            number("excessive_buffer_overrun_errors", "ExcessiveBufferOverrunErrors", 19, 4, 4);
    public static final CmField RESERVED_20 = CmField.reserved(20, 0, 16);
    public static final CmField VL15_DROPPED = number("vl15_dropped", "VL15Dropped", 22, 0, 16);
    public static final CmField XMIT_DATA = number("port_xmit_data", "PortXmitData", 24, 0, 32);
    public static final CmField RCV_DATA = number("port_rcv_data", "PortRcvData", 28, 0, 32);
    public static final CmField XMIT_PACKETS = number("port_xmit_pkts", "PortXmitPkts", 32, 0, 32);
    public static final CmField RCV_PACKETS = number("port_rcv_pkts", "PortRcvPkts", 36, 0, 32);
    public static final CmField XMIT_WAIT = number("port_xmit_wait", "PortXmitWait", 40, 0, 32);

    /** Every field in wire order; together they cover the attribute's 44 bytes. */
    public static final List<CmField> FIELDS = List.of(RESERVED_0, PORT_SELECT, COUNTER_SELECT, SYMBOL_ERRORS,
            LINK_ERROR_RECOVERIES, LINK_DOWNED, RCV_ERRORS, RCV_REMOTE_PHYSICAL_ERRORS, RCV_SWITCH_RELAY_ERRORS,
            XMIT_DISCARDS, XMIT_CONSTRAINT_ERRORS, RCV_CONSTRAINT_ERRORS, COUNTER_SELECT2, LOCAL_LINK_INTEGRITY_ERRORS,
            EXCESSIVE_BUFFER_OVERRUNS, RESERVED_20, VL15_DROPPED, XMIT_DATA, RCV_DATA, XMIT_PACKETS, RCV_PACKETS,
            XMIT_WAIT);

    private static CmField number(String name, String label, int byteOffset, int bitOffset, int width) {
        return CmField.number(Kind.NUMBER, name, label, byteOffset, bitOffset, width);
    }

    @Override
    public int length() {
        return LENGTH;
    }

    public long get(CmField field) {
        return field.get(buffer, offset);
    }

    /** Stores {@code value} in a counter, at all ones when it does not fit the counter's width (IBTA 16.1.3.5). */
    public PortCountersFlyweight setSaturated(CmField field, long value) {
        long max = field.width() == 64 ? -1L : (1L << field.width()) - 1;
        field.set(buffer, offset, Long.compareUnsigned(value, max) > 0 ? max : value);
        return this;
    }

    /** Zeroes all 44 bytes. */
    public PortCountersFlyweight clear() {
        for (int i = 0; i < LENGTH; i += 4) {
            i32(i, 0);
        }
        return this;
    }
}
