package io.jrxe.wire.dissect;

import io.jrxe.wire.cm.CmAttribute;
import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.pma.PerfMgmt;
import io.jrxe.wire.pma.PmaAttribute;

import java.util.List;

/**
 * A management datagram taken off QP1, decoded: its common header; for a PerfMgmt MAD, its attribute's
 * fields; for a CM message, every
 * field of the message in wire order and the RDMA IP CM header when the REQ (or SIDR_REQ) is for
 * an IP CM service.
 *
 * @param cmAttribute the CM attribute, or null when the MAD is not of the CM class or its attribute is unknown
 * @param cm          the message's fields in wire order (reserved bits included); empty unless a CM message
 * @param ipCm        the IP CM header at the start of the private data, or null
 * @param pmaAttribute the PerfMgmt attribute, or null when the MAD is not of that class or its attribute is unknown
 * @param pma         the PerfMgmt attribute's fields in wire order; empty unless a known PerfMgmt attribute
 */
public record MadFields(int baseVersion, int managementClass, int classVersion, int method, int status,
                        int classSpecific, long transactionId, int attributeId, int reserved, int attributeModifier,
                        CmAttribute cmAttribute, List<CmValue> cm, IpCm ipCm,
                        PmaAttribute pmaAttribute, List<CmValue> pma) {

    /** One field of a CM message and its value: a number, or bytes for a GID or private data. */
    public record CmValue(CmField field, long number, byte[] bytes) {
        public String name() {
            return field.name();
        }
    }

    /**
     * The IP CM header: versions, the addresses (4 bytes for IP version 4, else 16), the active
     * side's port, and the service ID's port space and port (the passive side's port).
     */
    public record IpCm(int majorVersion, int minorVersion, int ipVersion, int reserved, int sourcePort,
                       byte[] source, byte[] destination, long serviceId) {
    }

    public boolean isCm() {
        return managementClass == MadHeaderFlyweight.MGMT_CLASS_CM;
    }

    public boolean isPerfMgmt() {
        return managementClass == PerfMgmt.MGMT_CLASS;
    }

    /** The field of this name, or null when the message has none. */
    public CmValue value(String name) {
        for (CmValue v : cm) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        return null;
    }

    /** The PerfMgmt attribute's field of this name, or null when it has none. */
    public CmValue pmaValue(String name) {
        for (CmValue v : pma) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        return null;
    }
}
