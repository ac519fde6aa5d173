package io.jrxe.wire.port.udp;

import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.RawSocketUnavailableException;
import io.jrxe.wire.stats.CounterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The ECN codepoint over loopback: a socket sending with IP_TOS (or the IPv6 traffic class) set to each codepoint, and
 * the receiver reading it through recvmsg; the invoked port sending ECT(0) when told to and Not-ECT otherwise, and
 * receiving a CE-marked datagram with its codepoint handed to the NIC and counted.
 */
class EcnLoopbackTest {
    private static final PeerAddress RECEIVER = PeerAddress.of("127.0.34.1");
    private static final PeerAddress SENDER = PeerAddress.of("127.0.34.2");
    private static final RawSocketOpener NO_RAW = () -> {
        throw new RawSocketUnavailableException(1, "not in this test");
    };
    private static final long WAIT_NANOS = 10_000_000_000L;

    @BeforeAll
    static void needsRecvmsg() {
        String why = TosReceiver.unavailableReason();
        if (why != null) {
            System.out.println("SKIPPED: " + why);
        }
        assumeTrue(why == null, why);
    }

    @Test
    void recvmsgReadsEveryCodepointOverIpv4AndIpv6() throws Exception {
        for (String host : List.of("127.0.34.3", "::1")) {
            boolean v6 = host.contains(":");
            StandardProtocolFamily family = v6 ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
            try (DatagramChannel in = DatagramChannel.open(family); DatagramChannel out = DatagramChannel.open(family)) {
                in.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
                out.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
                TosReceiver r = TosReceiver.of((InetSocketAddress) in.getLocalAddress(), 2048);
                for (int tos : new int[] {Ecn.NOT_ECT, Ecn.ECT_1, Ecn.ECT_0, Ecn.CE, 46 << 2 | Ecn.CE}) {
                    out.setOption(StandardSocketOptions.IP_TOS, tos);
                    out.send(ByteBuffer.wrap(new byte[] {(byte) tos, 7, 9}), in.getLocalAddress());
                    int length = awaitDatagram(r);
                    String where = host + " sent with TOS 0x" + Integer.toHexString(tos);
                    assertThat(length).as(where).isEqualTo(3);
                    assertThat(r.buffer().get(0)).as(where).isEqualTo((byte) tos);
                    assertThat(r.tos()).as(where).isEqualTo(tos);
                    assertThat(r.sender()).as(where).isEqualTo(out.getLocalAddress());
                }
            }
        }
    }

    @Test
    void theInvokedPortSendsEct0WhenToldAndCountsTheCeMarksItReceives() throws Exception {
        List<Integer> classes = new ArrayList<>();
        CounterRegistry counters = new CounterRegistry();
        try (PolledUdpPort receiver = PolledUdpPort.bind(RECEIVER, NO_RAW);
             PolledUdpPort sender = PolledUdpPort.bind(SENDER, NO_RAW);
             DatagramChannel marker = DatagramChannel.open(StandardProtocolFamily.INET)) {
            assertThat(receiver.tosUnreadReason()).isNull();
            receiver.registerCounters(counters);
            receiver.receiver(new Collecting(classes));

            assertThat(sender.ecnCapable()).as("the default").isFalse();
            sender.send(packet(), 0, packet().capacity(), RECEIVER, 50_001);
            awaitPackets(receiver, classes, 1);
            sender.ecnCapable(true);
            sender.send(packet(), 0, packet().capacity(), RECEIVER, 50_001);
            sender.send(packet(), 0, packet().capacity(), RECEIVER, 50_002);
            awaitPackets(receiver, classes, 3);
            assertThat(classes).containsExactly(Ecn.NOT_ECT, Ecn.ECT_0, Ecn.ECT_0);
            assertThat(counters.get("jrxe_ecn_ce_received")).isZero();

            // What a switch does to a packet of a congested queue: the same packet, marked CE.
            marker.setOption(StandardSocketOptions.IP_TOS, Ecn.CE);
            marker.bind(new InetSocketAddress(SENDER.address(), 50_003));
            ByteBuffer marked = packet();
            IcrcCalculator.write(marked, marked.capacity() - IcrcCalculator.LENGTH, new IcrcCalculator().ipv4(SENDER.ipv4(),
                    RECEIVER.ipv4(), 0, 0x4000, 50_003, PeerAddress.ROCE_PORT, marked, 0, marked.capacity()));
            marker.send(marked, RECEIVER.socketAddress());
            awaitPackets(receiver, classes, 4);
            assertThat(classes.get(3)).as("the NIC sees CE").isEqualTo(Ecn.CE);
            assertThat(counters.get("jrxe_ecn_ce_received")).isEqualTo(1);
        }
    }

    /** An RC SEND ONLY with 4 bytes of payload and room for its ICRC. */
    private static ByteBuffer packet() {
        ByteBuffer b = ByteBuffer.allocateDirect(BthFlyweight.LENGTH + 4 + IcrcCalculator.LENGTH);
        new BthFlyweight().wrap(b, 0).set(Opcode.RC_SEND_ONLY.code(), false, 0, BthFlyweight.DEFAULT_PKEY, 0x11, true, 5);
        return b;
    }

    private static int awaitDatagram(TosReceiver r) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        int length;
        while ((length = r.receive()) < 0) {
            assertThat(r.lastErrno()).as("recvmsg's errno while nothing arrived (EAGAIN)").isEqualTo(11);
            assertThat(System.nanoTime()).as("a datagram arrived within 10 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
        return length;
    }

    private static void awaitPackets(PolledUdpPort port, List<Integer> seen, int count) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (seen.size() < count) {
            port.receive(64);
            assertThat(System.nanoTime()).as("%d packets within 10 s, %d so far", count, seen.size()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private record Collecting(List<Integer> ecn) implements PacketSink {
        @Override
        public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
            ecn.add(Ecn.of(info.trafficClass));
        }

        @Override
        public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
            throw new AssertionError("dropped: " + reason);
        }
    }
}
