package io.jrxe.wire.dissect;

import io.jrxe.wire.cm.CmAttribute;
import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.IpCmHeaderFlyweight;
import io.jrxe.wire.cm.IpCmServiceId;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.cm.ReqFlyweight;
import io.jrxe.wire.cm.SidrReqFlyweight;
import io.jrxe.wire.pma.PerfMgmt;
import io.jrxe.wire.pma.PmaAttribute;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Decodes a whole 256-byte MAD into {@link MadFields} with the wire.cm and wire.pma fields. */
final class MadDissector {
    private final MadHeaderFlyweight header = new MadHeaderFlyweight();
    private final IpCmHeaderFlyweight ipCm = new IpCmHeaderFlyweight();

    /** {@code mad} must hold exactly {@link MadHeaderFlyweight#MAD_LENGTH} bytes: the caller checks. */
    MadFields decode(byte[] mad) {
        if (mad.length != MadHeaderFlyweight.MAD_LENGTH) {
            throw new IllegalArgumentException("a MAD is " + MadHeaderFlyweight.MAD_LENGTH + " bytes, not " + mad.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(mad);
        header.wrap(buffer, 0);
        CmAttribute attribute = header.isCm() ? CmAttribute.of(header.attributeId()) : null;
        List<MadFields.CmValue> values = List.of();
        MadFields.IpCm ip = null;
        if (attribute != null) {
            values = values(attribute.fields(), buffer, MadHeaderFlyweight.LENGTH);
            ip = ipCm(attribute, buffer, MadHeaderFlyweight.LENGTH);
        }
        PmaAttribute pmaAttribute = header.managementClass() == PerfMgmt.MGMT_CLASS
                && header.classVersion() == PerfMgmt.CLASS_VERSION ? PmaAttribute.of(header.attributeId()) : null;
        List<MadFields.CmValue> pma = pmaAttribute == null ? List.of()
                : values(pmaAttribute.fields(), buffer, PerfMgmt.DATA_OFFSET);
        return new MadFields(header.baseVersion(), header.managementClass(), header.classVersion(), header.method(),
                header.status(), header.classSpecific(), header.transactionId(), header.attributeId(), header.reserved(),
                header.attributeModifier(), attribute, values, ip, pmaAttribute, pma);
    }

    /** Every field's value, read from the fields' base at {@code at}. */
    private static List<MadFields.CmValue> values(List<CmField> fields, ByteBuffer buffer, int at) {
        List<MadFields.CmValue> values = new ArrayList<>(fields.size());
        for (CmField f : fields) {
            if (f.isByteRange()) {
                byte[] bytes = new byte[f.length()];
                f.copyTo(buffer, at, bytes, 0);
                values.add(new MadFields.CmValue(f, 0, bytes));
            } else {
                values.add(new MadFields.CmValue(f, f.get(buffer, at), null));
            }
        }
        return List.copyOf(values);
    }

    /** The IP CM header of a REQ or SIDR_REQ whose service ID is in the RDMA IP CM range, else null. */
    private MadFields.IpCm ipCm(CmAttribute attribute, ByteBuffer buffer, int message) {
        CmField serviceField;
        CmField privateData;
        if (attribute == CmAttribute.REQ) {
            serviceField = ReqFlyweight.SERVICE_ID;
            privateData = ReqFlyweight.PRIVATE_DATA;
        } else if (attribute == CmAttribute.SIDR_REQ) {
            serviceField = SidrReqFlyweight.SERVICE_ID;
            privateData = SidrReqFlyweight.PRIVATE_DATA;
        } else {
            return null;
        }
        long serviceId = serviceField.get(buffer, message);
        if (!IpCmServiceId.isIpCm(serviceId)) {
            return null;
        }
        ipCm.wrap(buffer, message + privateData.byteOffset());
        byte[] src = new byte[IpCmHeaderFlyweight.ADDRESS_LENGTH];
        byte[] dst = new byte[IpCmHeaderFlyweight.ADDRESS_LENGTH];
        ipCm.getSourceAddress(src, 0).getDestinationAddress(dst, 0);
        if (ipCm.ipVersion() == 4) {
            // An IPv4 address sits in the last 4 bytes of its field.
            src = Arrays.copyOfRange(src, 12, 16);
            dst = Arrays.copyOfRange(dst, 12, 16);
        }
        return new MadFields.IpCm(ipCm.majorVersion(), ipCm.minorVersion(), ipCm.ipVersion(), ipCm.reserved(),
                ipCm.sourcePort(), src, dst, serviceId);
    }
}
