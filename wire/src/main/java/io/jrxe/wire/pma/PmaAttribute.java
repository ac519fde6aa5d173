package io.jrxe.wire.pma;

import io.jrxe.wire.cm.CmField;

import java.util.List;

/** The PerfMgmt attributes jrxe reads and answers, with their IDs and their fields in wire order. */
public enum PmaAttribute {
    CLASS_PORT_INFO(0x0001, "ClassPortInfo", ClassPortInfoFlyweight.FIELDS),
    PORT_COUNTERS(0x0012, "PortCounters", PortCountersFlyweight.FIELDS),
    PORT_COUNTERS_EXTENDED(0x001D, "PortCountersExtended", PortCountersExtendedFlyweight.FIELDS);

    /** values() copies its array at every call; the lookup runs for every MAD the agent is asked. */
    private static final PmaAttribute[] ALL = values();

    private final int id;
    private final String displayName;
    private final List<CmField> fields;

    PmaAttribute(int id, String displayName, List<CmField> fields) {
        this.id = id;
        this.displayName = displayName;
        this.fields = fields;
    }

    public int id() {
        return id;
    }

    /** The attribute's name as IBTA writes it, e.g. "PortCounters". */
    public String displayName() {
        return displayName;
    }

    /** Every field of the attribute in wire order, offsets counted from the attribute's first byte. */
    public List<CmField> fields() {
        return fields;
    }

    /** The attribute with this ID, or null when jrxe does not know it. */
    public static PmaAttribute of(int id) {
        for (PmaAttribute a : ALL) {
            if (a.id == id) {
                return a;
            }
        }
        return null;
    }
}
