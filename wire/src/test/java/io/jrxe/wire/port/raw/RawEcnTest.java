package io.jrxe.wire.port.raw;

import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.udp.TosReceiver;
import org.junit.jupiter.api.Test;

import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The raw IPv4 transmit path writes the TOS byte it is given: a receiver reads each packet's codepoint as staged. */
class RawEcnTest {
    private static final PeerAddress LOCAL = PeerAddress.of("127.0.34.21");
    private static final PeerAddress PEER = PeerAddress.of("127.0.34.22");

    @Test
    void packetsLeaveWithTheTosByteSet() throws Exception {
        RawPrivilege.assumeRawSocket();
        String why = TosReceiver.unavailableReason();
        if (why != null) {
            System.out.println("SKIPPED: " + why);
        }
        assumeTrue(why == null, why);
        try (DatagramChannel peer = DatagramChannel.open(StandardProtocolFamily.INET);
             RawIpv4Sender raw = new RawIpv4Sender(RawSocketOpener.system().open(), LOCAL, 4, 256, 1)) {
            peer.bind(PEER.socketAddress());
            TosReceiver in = TosReceiver.of(PEER.socketAddress(), 2048);
            for (int tos : new int[] {Ecn.NOT_ECT, Ecn.ECT_0, 46 << 2 | Ecn.ECT_0}) {
                raw.tos(tos);
                ByteBuffer p = ByteBuffer.allocateDirect(BthFlyweight.LENGTH + IcrcCalculator.LENGTH);
                new BthFlyweight().wrap(p, 0).set(Opcode.RC_SEND_ONLY.code(), false, 0, BthFlyweight.DEFAULT_PKEY, 0x11, true, tos);
                raw.stage(p, 0, p.capacity(), PEER, 50_010);
                assertThat(raw.flush()).isEqualTo(1);
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (in.receive() < 0) {
                    assertThat(System.nanoTime()).as("the packet arrived within 10 s").isLessThan(deadline);
                    Thread.onSpinWait();
                }
                assertThat(in.tos()).as("TOS 0x%02x", tos).isEqualTo(tos);
                assertThat(in.buffer().get(BthFlyweight.PSN_OFFSET + 2) & 0xFF).as("the packet staged").isEqualTo(tos);
            }
        }
    }
}
