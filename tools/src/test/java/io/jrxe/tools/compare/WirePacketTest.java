package io.jrxe.tools.compare;

import io.jrxe.verbs.GidEntry;
import io.jrxe.wire.capture.GoldenCaptures;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Packets of a capture of real kernel rxe traffic, as a comparison's step sees them. */
class WirePacketTest {
    @Test
    void aGoldenCapturesRequestsAndAnswersReadAsAStepsPackets() throws Exception {
        List<WirePacket> all = PacketSource.file(GoldenCaptures.file("guest_atomic_fadd.pcap")).collect().packets();
        byte[] requester = GidEntry.gidOf(InetAddress.getByName("10.77.0.2"));
        byte[] responder = GidEntry.gidOf(InetAddress.getByName("10.77.0.3"));
        // 10.77.0.2's QP 0x16 sends FETCH_ADDs from PSN 15887213 to 10.77.0.3's QP 0x16, which answers each.
        int psn = 15887213;
        WirePacket first = all.getFirst();
        assertThat(first.to(responder, 0x16)).isTrue();
        assertThat(first.to(requester, 0x16)).isFalse();
        assertThat(first.describe(true, psn, 0)).isEqualTo("A>B FETCH_ADD psn+0 A");
        WirePacket answer = all.stream().filter(p -> p.to(requester, 0x16)).findFirst().orElseThrow();
        assertThat(answer.describe(false, psn, 0)).isEqualTo("B>A ATOMIC_ACKNOWLEDGE psn+0 ACK credits=invalid msn=1");
        assertThat(all.stream().filter(p -> p.to(requester, 0x16)).count()).as("every FETCH_ADD is answered")
                .isEqualTo(all.stream().filter(p -> p.to(responder, 0x16)).count());
    }

    @Test
    void psnOffsetsWrapAt24BitsAndPayloadsAreCounted() {
        WirePacket lastOfWrap = new WirePacket(new byte[16], 7, 0x08, false, 2, true, null, 0, 100);
        assertThat(lastOfWrap.describe(true, 0xFFFFFE, 0)).isEqualTo("A>B RDMA_WRITE_LAST psn+4 A len=100");
        WirePacket nak = new WirePacket(new byte[16], 9, 0x11, true, 0x1000, false, 0x62, 0, 0);
        assertThat(nak.describe(false, 0x1000, 0x2000)).isEqualTo("B>A ACKNOWLEDGE psn+0 NAK remote access error msn=0");
    }
}
