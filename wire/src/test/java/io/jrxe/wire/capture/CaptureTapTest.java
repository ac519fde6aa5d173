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
        CaptureTap capture = new CaptureTap(new PcapngWriter(file), 100, 1 << 20, PORT_CLOCK_START);
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
}
