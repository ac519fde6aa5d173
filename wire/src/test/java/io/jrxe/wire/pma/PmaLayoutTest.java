package io.jrxe.wire.pma;

import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PerfMgmt attributes byte for byte against IBTA's layout (the offsets Linux's ib_pma.h gives
 * its structures): each field where IBTA puts it, the fields covering the attribute without gap or
 * overlap, and values written through the flyweights read back from the bytes they belong in.
 */
class PmaLayoutTest {

    @Test
    void attributeDataStartsAfterTheHeaderAndFortyReservedBytes() {
        assertThat(PerfMgmt.DATA_OFFSET).isEqualTo(64);
        assertThat(PerfMgmt.DATA_OFFSET + PerfMgmt.DATA_LENGTH).isEqualTo(MadHeaderFlyweight.MAD_LENGTH);
    }

    @Test
    void everyAttributesFieldsCoverItExactlyInWireOrder() {
        for (PmaAttribute a : PmaAttribute.values()) {
            int bit = 0;
            for (CmField f : a.fields()) {
                assertThat(f.bitPosition()).as(a + " " + f.name()).isEqualTo(bit);
                bit += f.width();
            }
            int length = switch (a) {
                case CLASS_PORT_INFO -> ClassPortInfoFlyweight.LENGTH;
                case PORT_COUNTERS -> PortCountersFlyweight.LENGTH;
                case PORT_COUNTERS_EXTENDED -> PortCountersExtendedFlyweight.LENGTH;
            };
            assertThat(bit).as(a + " length in bits").isEqualTo(length * 8);
            assertThat(PmaAttribute.of(a.id())).isSameAs(a);
        }
        assertThat(PmaAttribute.of(0x0012)).isSameAs(PmaAttribute.PORT_COUNTERS);
        assertThat(PmaAttribute.of(0x001D)).isSameAs(PmaAttribute.PORT_COUNTERS_EXTENDED);
        assertThat(PmaAttribute.of(0x0010)).isNull();
    }

    @Test
    void portCountersSitWhereIbtaPutsThem() {
        ByteBuffer mad = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
        PortCountersFlyweight c = new PortCountersFlyweight().wrap(mad, PerfMgmt.DATA_OFFSET);
        c.setSaturated(PortCountersFlyweight.PORT_SELECT, 1)
                .setSaturated(PortCountersFlyweight.COUNTER_SELECT, 0xF000)
                .setSaturated(PortCountersFlyweight.LINK_DOWNED, 0x1_23)
                .setSaturated(PortCountersFlyweight.RCV_ERRORS, 0x0BCD)
                .setSaturated(PortCountersFlyweight.LOCAL_LINK_INTEGRITY_ERRORS, 0x5)
                .setSaturated(PortCountersFlyweight.EXCESSIVE_BUFFER_OVERRUNS, 0x6)
                .setSaturated(PortCountersFlyweight.XMIT_DATA, 0x1_0000_0000L)
                .setSaturated(PortCountersFlyweight.RCV_DATA, 0x11223344L)
                .setSaturated(PortCountersFlyweight.XMIT_PACKETS, 0x55667788L)
                .setSaturated(PortCountersFlyweight.RCV_PACKETS, 0x99AABBCCL)
                .setSaturated(PortCountersFlyweight.XMIT_WAIT, 7);
        int d = PerfMgmt.DATA_OFFSET;
        assertThat(mad.get(d + 1)).isEqualTo((byte) 1);
        assertThat(mad.getShort(d + 2)).isEqualTo((short) 0xF000);
        assertThat(mad.get(d + 7)).as("link downed stops at all ones").isEqualTo((byte) 0xFF);
        assertThat(mad.getShort(d + 8)).isEqualTo((short) 0x0BCD);
        assertThat(mad.get(d + 19)).as("local link integrity in bits 7..4, buffer overruns in 3..0").isEqualTo((byte) 0x56);
        assertThat(mad.getInt(d + 24)).as("xmit data stops at all ones").isEqualTo(-1);
        assertThat(mad.getInt(d + 28)).isEqualTo(0x11223344);
        assertThat(mad.getInt(d + 32)).isEqualTo(0x55667788);
        assertThat(mad.getInt(d + 36)).isEqualTo(0x99AABBCC);
        assertThat(mad.getInt(d + 40)).isEqualTo(7);
        assertThat(c.get(PortCountersFlyweight.RCV_DATA)).isEqualTo(0x11223344L);
        assertThat(c.get(PortCountersFlyweight.RCV_PACKETS)).isEqualTo(0x99AABBCCL);
        c.clear();
        assertThat(mad.array()).containsOnly(0);
    }

    @Test
    void extendedCountersSitWhereIbtaPutsThem() {
        ByteBuffer mad = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
        PortCountersExtendedFlyweight c = new PortCountersExtendedFlyweight().wrap(mad, PerfMgmt.DATA_OFFSET);
        List<CmField> counters = List.of(PortCountersExtendedFlyweight.XMIT_DATA, PortCountersExtendedFlyweight.RCV_DATA,
                PortCountersExtendedFlyweight.XMIT_PACKETS, PortCountersExtendedFlyweight.RCV_PACKETS,
                PortCountersExtendedFlyweight.UNICAST_XMIT_PACKETS, PortCountersExtendedFlyweight.UNICAST_RCV_PACKETS,
                PortCountersExtendedFlyweight.MULTICAST_XMIT_PACKETS, PortCountersExtendedFlyweight.MULTICAST_RCV_PACKETS);
        for (int i = 0; i < counters.size(); i++) {
            c.set(counters.get(i), 0x8000_0000_0000_0000L | i);
        }
        c.set(PortCountersExtendedFlyweight.PORT_SELECT, 1).set(PortCountersExtendedFlyweight.COUNTER_SELECT, 0x00FF);
        int d = PerfMgmt.DATA_OFFSET;
        assertThat(mad.get(d + 1)).isEqualTo((byte) 1);
        assertThat(mad.getShort(d + 2)).isEqualTo((short) 0x00FF);
        assertThat(mad.getInt(d + 4)).isZero();
        for (int i = 0; i < counters.size(); i++) {
            assertThat(mad.getLong(d + 8 + 8 * i)).as(counters.get(i).name()).isEqualTo(0x8000_0000_0000_0000L | i);
            assertThat(c.get(counters.get(i))).isEqualTo(0x8000_0000_0000_0000L | i);
        }
        c.clear();
        assertThat(mad.array()).containsOnly(0);
    }

    @Test
    void classPortInfoCarriesVersionsCapabilityAndResponseTime() {
        ByteBuffer mad = ByteBuffer.allocate(MadHeaderFlyweight.MAD_LENGTH);
        for (int i = 0; i < mad.capacity(); i++) {
            mad.put(i, (byte) 0xEE);
        }
        ClassPortInfoFlyweight cpi = new ClassPortInfoFlyweight().wrap(mad, PerfMgmt.DATA_OFFSET)
                .set(1, 1, PerfMgmt.CAPABILITY_EXTENDED_WIDTH, 18);
        int d = PerfMgmt.DATA_OFFSET;
        assertThat(mad.get(d)).isEqualTo((byte) 1);
        assertThat(mad.get(d + 1)).isEqualTo((byte) 1);
        assertThat(mad.getShort(d + 2)).isEqualTo((short) 0x0200);
        assertThat(mad.getInt(d + 4)).as("capability mask 2 zero, response time in the low 5 bits").isEqualTo(18);
        for (int i = 8; i < ClassPortInfoFlyweight.LENGTH; i++) {
            assertThat(mad.get(d + i)).as("byte %d", i).isZero();
        }
        assertThat(mad.get(d + ClassPortInfoFlyweight.LENGTH)).as("nothing written past the attribute").isEqualTo((byte) 0xEE);
        assertThat(cpi.baseVersion()).isEqualTo(1);
        assertThat(cpi.classVersion()).isEqualTo(1);
        assertThat(cpi.capabilityMask()).isEqualTo(0x0200);
        assertThat(cpi.respTimeValue()).isEqualTo(18);
    }
}
