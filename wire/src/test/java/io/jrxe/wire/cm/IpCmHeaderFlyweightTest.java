package io.jrxe.wire.cm;

import io.jrxe.wire.header.FlyweightHarness;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/** The RDMA IP CM header at the start of a REQ's private data (IBTA annex A11). */
class IpCmHeaderFlyweightTest {
    static ExpectedLayout<IpCmHeaderFlyweight> layout() {
        return ExpectedLayout.header(IpCmHeaderFlyweight.class, IpCmHeaderFlyweight::new, IpCmHeaderFlyweight.LENGTH)
                .number("majorVersion", 0, 0, 4)
                .number("minorVersion", 0, 4, 4)
                .number("ipVersion", 1, 0, 4)
                .number("reserved", 1, 4, 4)
                .number("sourcePort", 2, 0, 16)
                .bytesWithoutLength("sourceAddress", 4, 16)
                .bytesWithoutLength("destinationAddress", 20, 16);
    }

    @Test
    void everyFieldRoundTripsWithoutDisturbingItsNeighbours() {
        layout().harness().checkEveryFieldRoundTrips(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS / 10);
    }

    @Test
    void gettersDecodeRandomBytesAsTheAnnexLaysThemOut() {
        layout().harness().checkDecodesRandomBytes(FlyweightHarness.seed(), FlyweightHarness.ITERATIONS / 10);
    }

    /** The IP CM header of rping's REQ in testdata/rxe-cm/cm_rping_v4.pcap (tshark: IPv4, port 0xab47). */
    @Test
    void setIpv4WritesWhatRpingsKernelSent() throws Exception {
        ByteBuffer buffer = ByteBuffer.allocate(IpCmHeaderFlyweight.LENGTH);
        Arrays.fill(buffer.array(), (byte) 0x5A);
        int src = ByteBuffer.wrap(InetAddress.getByName("10.77.0.2").getAddress()).getInt();
        int dst = ByteBuffer.wrap(InetAddress.getByName("10.77.0.3").getAddress()).getInt();
        IpCmHeaderFlyweight h = new IpCmHeaderFlyweight().wrap(buffer, 0).setIpv4(0xab47, src, dst);

        assertThat(HexFormat.of().formatHex(buffer.array())).isEqualTo("0040ab47" + "00".repeat(12) + "0a4d0002"
                + "00".repeat(12) + "0a4d0003");
        assertThat(h.ipVersion()).isEqualTo(4);
        assertThat(h.sourceIpv4()).isEqualTo(src);
        assertThat(h.destinationIpv4()).isEqualTo(dst);
        assertThat(h.sourcePort()).isEqualTo(43847);
    }

    @Test
    void setIpv6WritesBothAddressesWhole() throws Exception {
        ByteBuffer buffer = ByteBuffer.allocate(40);
        byte[] src = InetAddress.getByName("fd77::2").getAddress();
        byte[] dst = InetAddress.getByName("fd77::3").getAddress();
        IpCmHeaderFlyweight h = new IpCmHeaderFlyweight().wrap(buffer, 4).setIpv6(7471, src, dst);

        assertThat(h.ipVersion()).isEqualTo(6);
        assertThat(h.majorVersion()).isZero();
        assertThat(h.minorVersion()).isZero();
        byte[] read = new byte[16];
        h.getSourceAddress(read, 0);
        assertThat(read).isEqualTo(src);
        h.getDestinationAddress(read, 0);
        assertThat(read).isEqualTo(dst);
        assertThat(buffer.getShort(6)).isEqualTo((short) 7471);
    }
}
