package io.jrxe.wire.capture;

import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class CaptureTapTest {
    private static final long PORT_CLOCK_START = 5_000_000_000L;

    @Test
    void packetsKeepThePortClocksOrderAndSpacingOnTheWallClock() throws Exception {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        long before = System.currentTimeMillis() * 1_000_000L;
        CaptureTap capture = new CaptureTap(new PcapngWriter(file), 100, 1 << 20, 0, PORT_CLOCK_START);
        PacketTap tap = capture.forPort("jrxe0");
        PeerAddress a = PeerAddress.of(InetAddress.getByName("127.0.0.1"));
        PeerAddress b = PeerAddress.of(InetAddress.getByName("127.0.0.2"));
        ByteBuffer roce = ByteBuffer.wrap(SamplePackets.roce(Opcode.RC_SEND_ONLY, 16, new Random(1)));
        long[] portTimes = {PORT_CLOCK_START + 10, PORT_CLOCK_START + 1_510, PORT_CLOCK_START + 1_000_000_017L};
        for (long t : portTimes) {
            tap.packet(PacketTap.Direction.SENT, a, b, 49152, 4791, 1, roce, 0, roce.limit(), t, null);
        }
        capture.close();
        long after = System.currentTimeMillis() * 1_000_000L + 1_000_000L;

        List<Long> stamps = PcapngBlocks.parse(file.toByteArray()).stream()
                .filter(block -> block.type() == PcapngWriter.ENHANCED_PACKET_BLOCK)
                .map(block -> ((long) block.body().getInt(4) << 32) | (block.body().getInt(8) & 0xFFFFFFFFL))
                .toList();
        assertThat(stamps).hasSize(3);
        assertThat(stamps.get(0)).isBetween(before, after);
        assertThat(stamps.get(1) - stamps.get(0)).isEqualTo(1_500);
        assertThat(stamps.get(2) - stamps.get(0)).isEqualTo(1_000_000_007L);
    }

    @Test
    void framesAreTheFramersBytesWholeOrCutToTheSnapshotLength() throws Exception {
        PeerAddress a = PeerAddress.of(InetAddress.getByName("10.0.0.1"));
        PeerAddress b = PeerAddress.of(InetAddress.getByName("10.0.0.2"));
        byte[] packet = SamplePackets.roce(Opcode.RC_RDMA_WRITE_ONLY, 3000, new Random(7));
        ByteBuffer roce = ByteBuffer.allocateDirect(packet.length + 10);
        roce.put(10, packet);
        ByteBuffer expected = ByteBuffer.allocate(4096);
        int expectedLength = new io.jrxe.wire.framing.RoceFramer().addresses(a.ipBytes(), b.ipBytes()).ports(49200, 4791)
                .identification(77).frame(expected, 0, ByteBuffer.wrap(packet), 0, packet.length, false);

        for (int snap : new int[] {0, 100}) {
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            CaptureTap capture = new CaptureTap(new PcapngWriter(file), 100, 1 << 20, snap, PORT_CLOCK_START);
            capture.forPort("jrxe0").packet(PacketTap.Direction.SENT, a, b, 49200, 4791, 77, roce, 10, packet.length,
                    PORT_CLOCK_START, null);
            capture.close();
            ByteBuffer epb = PcapngBlocks.parse(file.toByteArray()).stream()
                    .filter(block -> block.type() == PcapngWriter.ENHANCED_PACKET_BLOCK).findFirst().orElseThrow().body();
            int captured = epb.getInt(12);
            assertThat(epb.getInt(16)).as("original length").isEqualTo(expectedLength);
            assertThat(captured).isEqualTo(snap == 0 ? expectedLength : snap);
            byte[] data = new byte[captured];
            epb.get(20, data);
            byte[] want = new byte[captured];
            expected.get(0, want);
            assertThat(data).isEqualTo(want);
        }
    }

    @Test
    void eachPacketGetsItsOwnHeadersWhenItDiffersFromTheOneBeforeInOneField() throws Exception {
        PeerAddress a = PeerAddress.of(InetAddress.getByName("10.0.0.1"));
        PeerAddress b = PeerAddress.of(InetAddress.getByName("10.0.0.2"));
        PeerAddress c = PeerAddress.of(InetAddress.getByName("10.0.0.3"));
        byte[] small = SamplePackets.roce(Opcode.RC_SEND_ONLY, 16, new Random(3));
        byte[] large = SamplePackets.roce(Opcode.RC_SEND_ONLY, 200, new Random(4));
        // source, destination, source port, destination port, identification, packet: each row changes one field
        Object[][] stream = {
            {a, b, 49200, 4791, 0, small}, {a, b, 49200, 4791, 0, small}, {a, b, 49200, 4791, 0, large},
            {a, b, 49200, 4791, 9, large}, {a, c, 49200, 4791, 9, large}, {c, b, 49200, 4791, 9, large},
            {c, b, 49201, 4791, 9, large}, {c, b, 49201, 4792, 9, large}, {a, b, 49200, 4791, 0, small},
        };
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        CaptureTap capture = new CaptureTap(new PcapngWriter(file), 100, 1 << 20, 0, PORT_CLOCK_START);
        PacketTap tap = capture.forPort("jrxe0");
        for (Object[] p : stream) {
            byte[] packet = (byte[]) p[5];
            tap.packet(PacketTap.Direction.SENT, (PeerAddress) p[0], (PeerAddress) p[1], (int) p[2], (int) p[3], (int) p[4],
                    ByteBuffer.wrap(packet), 0, packet.length, PORT_CLOCK_START, null);
        }
        capture.close();

        List<ByteBuffer> epbs = PcapngBlocks.parse(file.toByteArray()).stream()
                .filter(block -> block.type() == PcapngWriter.ENHANCED_PACKET_BLOCK).map(PcapngBlocks.Block::body).toList();
        assertThat(epbs).hasSize(stream.length);
        for (int i = 0; i < stream.length; i++) {
            Object[] p = stream[i];
            byte[] packet = (byte[]) p[5];
            ByteBuffer want = ByteBuffer.allocate(4096);
            int length = new io.jrxe.wire.framing.RoceFramer()
                    .addresses(((PeerAddress) p[0]).ipBytes(), ((PeerAddress) p[1]).ipBytes()).ports((int) p[2], (int) p[3])
                    .identification((int) p[4]).frame(want, 0, ByteBuffer.wrap(packet), 0, packet.length, false);
            ByteBuffer epb = epbs.get(i);
            byte[] data = new byte[epb.getInt(12)];
            epb.get(20, data);
            assertThat(data).as("frame %d", i).isEqualTo(java.util.Arrays.copyOf(want.array(), length));
        }
    }
}
