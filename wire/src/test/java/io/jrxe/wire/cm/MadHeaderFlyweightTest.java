package io.jrxe.wire.cm;

import io.jrxe.wire.header.FlyweightHarness;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/** The common MAD header (IBTA 13.4): 24 bytes, every field where the spec puts it. */
class MadHeaderFlyweightTest {
    static ExpectedLayout<MadHeaderFlyweight> layout() {
        return ExpectedLayout.header(MadHeaderFlyweight.class, MadHeaderFlyweight::new, MadHeaderFlyweight.LENGTH)
                .number("baseVersion", 0, 0, 8)
                .number("managementClass", 1, 0, 8)
                .number("classVersion", 2, 0, 8)
                .number("method", 3, 0, 8)
                .number("status", 4, 0, 16)
                .number("classSpecific", 6, 0, 16)
                .number("transactionId", 8, 0, 64)
                .number("attributeId", 16, 0, 16)
                .number("reserved", 18, 0, 16)
                .number("attributeModifier", 20, 0, 32);
    }

    @Test
    void everyFieldRoundTripsWithoutDisturbingItsNeighbours() {
        layout().harness().checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS / 4);
    }

    @Test
    void gettersDecodeRandomBytesAsTheSpecLaysThemOut() {
        layout().harness().checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS / 4);
    }

    /** The first 24 bytes of the REQ in testdata/rxe-cm/cm_rping_v4.pcap, as tshark shows them. */
    @Test
    void setCmWritesTheHeaderTheKernelsCmSends() {
        ByteBuffer buffer = ByteBuffer.allocate(40);
        for (int i = 0; i < 40; i++) {
            buffer.put(i, (byte) 0xEE);
        }
        MadHeaderFlyweight mad = new MadHeaderFlyweight().wrap(buffer, 8).setCm(CmAttribute.REQ, 0x00000002412b33abL);

        assertThat(HexFormat.of().formatHex(buffer.array(), 8, 32))
                .isEqualTo("010702030000000000000002412b33ab0010000000000000");
        assertThat(buffer.get(7)).as("before the header").isEqualTo((byte) 0xEE);
        assertThat(buffer.get(32)).as("after the header").isEqualTo((byte) 0xEE);
        assertThat(mad.isCm()).isTrue();
        assertThat(CmAttribute.of(mad.attributeId())).isEqualTo(CmAttribute.REQ);
    }

    @Test
    void attributeIdsAreTheCmClasses() {
        assertThat(CmAttribute.of(0x0010)).isEqualTo(CmAttribute.REQ);
        assertThat(CmAttribute.of(0x0011)).isEqualTo(CmAttribute.MRA);
        assertThat(CmAttribute.of(0x0012)).isEqualTo(CmAttribute.REJ);
        assertThat(CmAttribute.of(0x0013)).isEqualTo(CmAttribute.REP);
        assertThat(CmAttribute.of(0x0014)).isEqualTo(CmAttribute.RTU);
        assertThat(CmAttribute.of(0x0015)).isEqualTo(CmAttribute.DREQ);
        assertThat(CmAttribute.of(0x0016)).isEqualTo(CmAttribute.DREP);
        assertThat(CmAttribute.of(0x0017)).isEqualTo(CmAttribute.SIDR_REQ);
        assertThat(CmAttribute.of(0x0018)).isEqualTo(CmAttribute.SIDR_REP);
        assertThat(CmAttribute.of(0x0019)).isEqualTo(CmAttribute.LAP);
        assertThat(CmAttribute.of(0x001A)).isEqualTo(CmAttribute.APR);
        assertThat(CmAttribute.of(0x0001)).isEqualTo(CmAttribute.CLASS_PORT_INFO);
        assertThat(CmAttribute.of(0x0020)).isNull();
        assertThat(CmAttribute.CLASS_PORT_INFO.isMessage()).isFalse();
        assertThat(CmAttribute.CLASS_PORT_INFO.fields()).isEmpty();
    }
}
