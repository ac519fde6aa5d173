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
import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CaptureTap;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
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

    /**
     * ... and jrxe's own capture of both ports shows each packet's codepoint as it was sent and received.
     */
    @Test
    void theInvokedPortSendsEct0WhenToldAndCountsTheCeMarksItReceives(@TempDir Path dir) throws Exception {
        List<Integer> classes = new ArrayList<>();
        CounterRegistry counters = new CounterRegistry();
        Path file = dir.resolve("ecn.pcapng");
        CaptureTap capture = new CaptureTap(new PcapngWriter(file), 100, 1 << 20);
        try (PolledUdpPort receiver = PolledUdpPort.bind(RECEIVER, NO_RAW);
             PolledUdpPort sender = PolledUdpPort.bind(SENDER, NO_RAW);
             DatagramChannel marker = DatagramChannel.open(StandardProtocolFamily.INET)) {
            assertThat(receiver.tosUnreadReason()).isNull();
            receiver.registerCounters(counters);
            receiver.receiver(new Collecting(classes));
            receiver.tap(capture.forPort("receiver"));
            sender.tap(capture.forPort("sender"));

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
            marker.bind(new InetSocketAddress(SENDER.address(), 50_003));
            sendMarked(marker, RECEIVER, Ecn.CE);
            awaitPackets(receiver, classes, 4);
            assertThat(classes.get(3)).as("the NIC sees CE").isEqualTo(Ecn.CE);
            assertThat(counters.get("jrxe_ecn_ce_received")).isEqualTo(1);
        } finally {
            capture.close();
        }
        Dissector dissector = new Dissector();
        List<Integer> captured = new ArrayList<>();
        for (CapturedFrame f : CaptureReader.readAll(file)) {
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            assertThat(p.icrcOk()).as("frame %d", f.frameNumber()).isTrue();
            captured.add(Ecn.of(p.ip().tos()));
        }
        assertThat(captured).as("three sent, four received").containsExactlyInAnyOrder(
                Ecn.NOT_ECT, Ecn.ECT_0, Ecn.ECT_0, Ecn.NOT_ECT, Ecn.ECT_0, Ecn.ECT_0, Ecn.CE);
    }

    /**
     * The NIC-thread port over epoll: once ECN-capable it reads its socket with recvmsg on the event loop, and each
     * datagram reaches the NIC with its codepoint; a port that is not ECN-capable keeps Netty's reading, without it.
     */
    @Test
    void theNicThreadPortReadsTheCodepointOnceEcnCapable() throws Exception {
        UdpTransport transport = UdpTransport.best();
        if (transport != UdpTransport.EPOLL) {
            System.out.println("SKIPPED: epoll is unavailable (" + UdpTransport.epollUnavailableReason() + ")");
        }
        assumeTrue(transport == UdpTransport.EPOLL, "epoll is unavailable");
        PeerAddress nicThreadPort = PeerAddress.of("127.0.34.5");
        io.netty.channel.EventLoopGroup loop = transport.newNicThread("ecn-test");
        java.util.Queue<Integer> classes = new java.util.concurrent.ConcurrentLinkedQueue<>();
        CounterRegistry counters = new CounterRegistry();
        try (DatagramChannel marker = DatagramChannel.open(StandardProtocolFamily.INET)) {
            marker.bind(new InetSocketAddress(SENDER.address(), 50_004));
            UdpPort port = UdpPort.bind(transport, loop.next(), nicThreadPort);
            try {
                port.registerCounters(counters);
                port.receiver(new Collecting(classes));
                assertThat(port.tosUnreadReason()).as("not ECN-capable: Netty reads the socket").isNotNull();
                sendMarked(marker, nicThreadPort, Ecn.CE);
                awaitCount(classes, 1);
                assertThat(classes.peek()).as("without recvmsg the mark is not seen").isEqualTo(Ecn.NOT_ECT);

                port.ecnCapable(true);
                assertThat(port.tosUnreadReason()).isNull();
                for (int tos : new int[] {Ecn.ECT_0, Ecn.CE, 26 << 2 | Ecn.CE, Ecn.NOT_ECT}) {
                    sendMarked(marker, nicThreadPort, tos);
                }
                awaitCount(classes, 5);
                assertThat(classes).containsExactly(Ecn.NOT_ECT, Ecn.ECT_0, Ecn.CE, Ecn.CE, Ecn.NOT_ECT);
                assertThat(counters.get("jrxe_ecn_ce_received")).isEqualTo(2);
            } finally {
                port.close();
            }
        } finally {
            loop.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        }
        // Closed, the port's address is free again: the descriptor the reading duplicated is closed too.
        try (DatagramChannel again = DatagramChannel.open(StandardProtocolFamily.INET)) {
            again.bind(nicThreadPort.socketAddress());
        }
    }

    /** A packet with a valid ICRC from the marker's socket to {@code to}, its IP TOS byte {@code tos}. */
    private static void sendMarked(DatagramChannel marker, PeerAddress to, int tos) throws Exception {
        marker.setOption(StandardSocketOptions.IP_TOS, tos);
        int port = ((InetSocketAddress) marker.getLocalAddress()).getPort();
        ByteBuffer p = packet();
        IcrcCalculator.write(p, p.capacity() - IcrcCalculator.LENGTH, new IcrcCalculator().ipv4(SENDER.ipv4(), to.ipv4(), 0,
                0x4000, port, PeerAddress.ROCE_PORT, p, 0, p.capacity()));
        marker.send(p, to.socketAddress());
    }

    private static void awaitCount(java.util.Collection<Integer> seen, int count) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (seen.size() < count) {
            assertThat(System.nanoTime()).as("%d packets within 10 s, %d so far", count, seen.size()).isLessThan(deadline);
            Thread.onSpinWait();
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

    private record Collecting(java.util.Collection<Integer> ecn) implements PacketSink {
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
